import os from 'node:os';

export type MachineInfo = {
  cpuModel: string;
  cores: number;
  ramGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the bench started: other work on the machine skews every figure. */
  loadAverageAtStart: number;
  /** 1-minute load average sampled every few seconds while the bench ran. */
  loadAverageDuring?: { mean: number; max: number; samples: number };
};

/** What the figures were measured on. */
export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** Samples the 1-minute load average every intervalMs until stopped. */
export function sampleLoad(intervalMs = 5000): { stop: () => { mean: number; max: number; samples: number } } {
  const samples: number[] = [os.loadavg()[0]!];
  const timer = setInterval(() => samples.push(os.loadavg()[0]!), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
      return {
        mean: Math.round(mean * 100) / 100,
        max: Math.round(Math.max(...samples) * 100) / 100,
        samples: samples.length,
      };
    },
  };
}
