import os from 'node:os';
import { median } from './stats.ts';

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
  /** The CPU control (cpuControlMs) as the bench started, and as it ended. */
  cpuControlMs?: { start: number; end?: number };
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
    cpuControlMs: { start: cpuControlMs() },
  };
}

/**
 * A fixed piece of single-threaded JavaScript, timed (median of 5): the control for every figure
 * of a run. A virtual machine's two cores are not always the same speed: on this one the taps at
 * 4× CPU measured 80–96 ms in the morning and 150–220 ms that evening on the same code, with a
 * load average near 0 both times. Two runs' figures compare only when their controls are close.
 */
export function cpuControlMs(): number {
  const times: number[] = [];
  let sink = 0;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let x = run;
    for (let i = 0; i < 50_000_000; i++) x = (x + i * 7) % 1_000_003;
    sink += x;
    times.push(performance.now() - started);
  }
  // The result is used, so the loop is never optimised away.
  if (sink < 0) throw new Error('unreachable');
  return Math.round(median(times));
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
