// The self-hosted server's memory: `npm run serve` on a data folder of its own, with the
// demo's 15 cabins and then 150, its whole process tree (the server, the build process it keeps
// between edits and what that one starts) sampled from /proc every SAMPLE_MS: at the peak of
// bursts of edits, and idle once the build process has gone. Where this machine lets the bench
// make a cgroup, the server runs under a 1 GB memory limit, as systemd's MemoryMax=1G would hold
// it on the cheapest VPS. `node bench/memory.ts` runs it alone; `BENCH_ONLY=memory npm run bench`
// within the bench.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, quietEnv, waitFor } from '../scripts/lib/tools.ts';
import { openSqlite } from '../worker/platform/node/sqlite.ts';
import { growCabinsIn } from './cabins.ts';
import { adminLogin } from './edit-to-live.ts';
import { serveScriptEnv } from './targets.ts';

const SAMPLE_MS = 100;
const MB = 1024 * 1024;
/** The memory of the cheapest VPS an owner rents. */
const LIMIT_BYTES = 1024 * MB;
const PASSWORD = 'bench-memory-password-1';
/** A burst's saves come this far apart: each build starts before the next save (SETTLE_MAX_MS), the worst case. */
const SAVE_GAP_MS = 500;
/** The warm build process goes 2 minutes after its last build (scripts/lib/warm-astro.ts); waited for this long at most. */
const BUILDER_GONE_TIMEOUT_MS = 4 * 60_000;
/** Idle: the most the tree held over this long, once the build process has gone and V8 has had a few seconds. */
const IDLE_SETTLE_MS = 5_000;
const IDLE_WINDOW_MS = 5_000;
const LIVE_TIMEOUT_MS = 10 * 60_000;

/** The sizes and bursts the bench measures: 10 quick saves at each size, and the burst of 30 on the demo. */
export const MEMORY_SIZES = [
  { cabins: 15, bursts: [10, 30] },
  { cabins: 150, bursts: [10] },
];

export type MemoryBurst = { edits: number; gapMs: number; peakMb: number; seconds: number; live: boolean };
export type MemoryPoint = {
  cabins: number;
  /** The rebuild after the catalogue grew to this size (absent at the demo's size: the first build). */
  growBuildPeakMb?: number;
  bursts: MemoryBurst[];
  /** The highest of the bursts and the rebuild after growing. */
  peakMb: number;
  /** Right after the last burst, the build process still loaded. */
  idleWithBuilderMb: number;
  /** Once it has gone (null if it never went within BUILDER_GONE_TIMEOUT_MS). */
  idleMb: number | null;
};
export type MemoryResults = {
  /** How the server was held to 1 GB, or why it was not. */
  limit: string;
  /** The first start: seed, build (photos from Astro's cache, not encoded again), serve. */
  firstBuildPeakMb: number;
  points: MemoryPoint[];
  /** The kernel's own figures for the cgroup (counting the page cache, which it reclaims before killing). */
  cgroup?: { maxUsageMb: number; limitHits: number; oomKills: number };
  /** The server's process ended during the stage (killed by the limit, or crashed). */
  serverExit?: string;
  error?: string;
};

/**
 * The resident memory of a process and all its descendants, from /proc. A page shared by two
 * processes (the node binary's code, libraries both map) counts in each, so the sum errs high.
 */
export function treeRssBytes(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    stack.push(...childrenOf(p));
  }
  return total;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => {
      try {
        return readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** The tree's RSS every SAMPLE_MS; `peak` is the highest since the last `reset`. */
function sampleTree(pid: number) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeRssBytes(pid))), SAMPLE_MS);
  return {
    peakMb: () => Math.round(Math.max(peak, treeRssBytes(pid)) / MB),
    reset: () => (peak = 0),
    stop: () => clearInterval(timer),
  };
}

/** A memory cgroup of this process's own (v2, or v1 where the kernel mounts that), limited to 1 GB. */
function limitCgroup():
  | { dir: string; version: 1 | 2; add(pid: number): void; stats(): MemoryResults['cgroup']; remove(): void }
  | { why: string } {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  const v1 = lines.find((l) => l.split(':')[1]?.split(',').includes('memory'));
  const v2 = lines.find((l) => l.startsWith('0::'));
  let base: string;
  let version: 1 | 2;
  if (v1) [base, version] = [path.join('/sys/fs/cgroup/memory', v1.split(':')[2]!), 1];
  else if (v2 && readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(' ').includes('memory'))
    [base, version] = [path.join('/sys/fs/cgroup', v2.slice(3)), 2];
  else return { why: 'no memory cgroup controller here' };
  // Below this process's own cgroup, so whatever limits that one still holds the server too.
  const dir = path.join(base, `kaspiy-bench-memory-${process.pid}`);
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, version === 1 ? 'memory.limit_in_bytes' : 'memory.max'), String(LIMIT_BYTES));
  } catch (err) {
    return { why: `a cgroup could not be made (${(err as NodeJS.ErrnoException).code})` };
  }
  return {
    dir,
    version,
    add: (pid) => writeFileSync(path.join(dir, 'cgroup.procs'), String(pid)),
    stats: () =>
      version === 1
        ? {
            maxUsageMb: Math.round(Number(read('memory.max_usage_in_bytes')) / MB),
            limitHits: Number(read('memory.failcnt')),
            oomKills: Number(/oom_kill (\d+)/.exec(read('memory.oom_control'))?.[1] ?? 0),
          }
        : {
            maxUsageMb: Math.round(Number(read('memory.peak')) / MB),
            limitHits: Number(/^max (\d+)/m.exec(read('memory.events'))?.[1] ?? 0),
            oomKills: Number(/^oom_kill (\d+)/m.exec(read('memory.events'))?.[1] ?? 0),
          },
    // Only once its processes have ended (the server is stopped before).
    remove: () => rmdirSync(dir),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the server, measures each size in turn (`bursts`: the edits of each burst), stops it.
 * A failure ends the stage with what was measured so far and the error.
 */
export async function measureMemory(opts: {
  port: number;
  sizes: { cabins: number; bursts: number[] }[];
  log: (line: string) => void;
}): Promise<MemoryResults> {
  const { log } = opts;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kaspiy-bench-memory-'));
  const url = `http://127.0.0.1:${opts.port}`;
  const cgroup = limitCgroup();
  const results: MemoryResults = {
    limit:
      'dir' in cgroup
        ? `cgroup v${cgroup.version} memory limit of 1 GB (as systemd's MemoryMax=1G)`
        : `none: ${cgroup.why}; the V8 flags alone bound the heaps`,
    firstBuildPeakMb: 0,
    points: [],
  };
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
    cwd: ROOT,
    env: quietEnv({
      ...serveScriptEnv(),
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      ADMIN_PASSWORD: PASSWORD,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout!.on('data', (d: Buffer) => (out += d));
  server.stderr!.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<string>((resolve) =>
    server.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  let stopping = false;
  void exited.then((how) => {
    if (!stopping) results.serverExit = how;
  });
  const died = exited.then((how): never => {
    throw new Error(`the server exited (${how}): ${out.slice(-1500)}`);
  });
  died.catch(() => {});
  if ('dir' in cgroup) cgroup.add(server.pid!);
  const tree = sampleTree(server.pid!);
  try {
    log(`Memory: npm run serve on ${url}, ${results.limit}…`);
    await Promise.race([waitFor(`${url}/build.json`, 15 * 60_000), died]);
    await Promise.race([builderIdle(url), died]);
    results.firstBuildPeakMb = tree.peakMb();
    log(`  first start (seed, build, serve): peak ${results.firstBuildPeakMb} MB`);
    const cookie = await adminLogin(url, PASSWORD);
    let edit = 0;
    /** `count` saves of the hero title SAVE_GAP_MS apart, then until `/` shows the last one. */
    const burst = async (count: number): Promise<MemoryBurst> => {
      tree.reset();
      const started = performance.now();
      let title = '';
      for (let i = 0; i < count; i++) {
        if (i > 0) await sleep(SAVE_GAP_MS);
        title = `Каспий ждёт вас, память ${++edit}`;
        const res = await fetch(`${url}/api/settings`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ heroTitle: title }),
        });
        if (!res.ok) throw new Error(`PUT /api/settings answered ${res.status}`);
      }
      const live = await Promise.race([shows(url, title), died]);
      await Promise.race([builderIdle(url), died]);
      return {
        edits: count,
        gapMs: SAVE_GAP_MS,
        peakMb: tree.peakMb(),
        seconds: (performance.now() - started) / 1000,
        live,
      };
    };
    let cabins = 15;
    for (const size of opts.sizes) {
      const point: MemoryPoint = { cabins: size.cabins, bursts: [], peakMb: 0, idleWithBuilderMb: 0, idleMb: null };
      results.points.push(point);
      if (size.cabins > cabins) {
        const db = openSqlite(path.join(dataDir, 'kaspiy.sqlite'));
        try {
          cabins = (await growCabinsIn({ DB: db }, size.cabins)).active;
        } finally {
          db.close();
        }
        point.growBuildPeakMb = (await burst(1)).peakMb;
        log(`  ${cabins} cabins: the rebuild after growing, peak ${point.growBuildPeakMb} MB`);
      }
      for (const count of size.bursts) {
        const b = await burst(count);
        point.bursts.push(b);
        log(
          `  ${cabins} cabins: ${count} saves ${SAVE_GAP_MS} ms apart, live after ${b.seconds.toFixed(1)} s: peak ${b.peakMb} MB${b.live ? '' : ' (the last save never went live)'}`,
        );
      }
      point.peakMb = Math.max(point.growBuildPeakMb ?? 0, ...point.bursts.map((b) => b.peakMb));
      point.idleWithBuilderMb = Math.round(treeRssBytes(server.pid!) / MB);
      const gone = await Promise.race([builderGone(server.pid!), died]);
      if (gone) {
        await sleep(IDLE_SETTLE_MS);
        tree.reset();
        await sleep(IDLE_WINDOW_MS);
        point.idleMb = tree.peakMb();
      }
      log(
        `  ${cabins} cabins idle: ${point.idleWithBuilderMb} MB with the build process loaded, ${point.idleMb ?? '—'} MB once it has gone`,
      );
    }
  } catch (err) {
    results.error = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    log(`  failed: ${results.error}`);
  } finally {
    tree.stop();
    if ('dir' in cgroup) results.cgroup = cgroup.stats();
    stopping = true;
    if (server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await gone;
    }
    if ('dir' in cgroup) {
      await sleep(500);
      try {
        cgroup.remove();
      } catch (err) {
        log(`  the cgroup ${cgroup.dir} could not be removed: ${(err as Error).message}`);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (results.cgroup)
    log(
      `  cgroup: at most ${results.cgroup.maxUsageMb} MB charged (page cache included), limit reached ${results.cgroup.limitHits} times, ${results.cgroup.oomKills} processes killed`,
    );
  return results;
}

/** Until the server's builder has nothing running or queued (its state in the panel's publish route). */
async function builderIdle(url: string): Promise<void> {
  const cookie = await adminLogin(url, PASSWORD);
  const deadline = Date.now() + LIVE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const s = (await fetch(`${url}/api/admin/publish`, { headers: { cookie } }).then((r) => r.json())) as {
      builder: { state: string } | null;
    };
    if (s.builder?.state !== 'building') return;
    await sleep(250);
  }
  throw new Error('the builder stayed busy');
}

/** Whether `/` shows the text within LIVE_TIMEOUT_MS. */
async function shows(url: string, text: string): Promise<boolean> {
  const deadline = Date.now() + LIVE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (
      (
        await fetch(`${url}/`, { cache: 'no-store' }).then(
          (r) => r.text(),
          () => '',
        )
      ).includes(text)
    )
      return true;
    await sleep(250);
  }
  return false;
}

/** Until the server has no child process left (the warm build process went); false after BUILDER_GONE_TIMEOUT_MS. */
async function builderGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + BUILDER_GONE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (childrenOf(pid).length === 0) return true;
    await sleep(1000);
  }
  return false;
}

if (import.meta.main) {
  const t0 = performance.now();
  const log = (line: string) =>
    console.log(`[memory ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const results = await measureMemory({ port: Number(process.env.BENCH_PORT ?? 8795) + 46, sizes: MEMORY_SIZES, log });
  console.log(JSON.stringify(results, null, 2));
}
