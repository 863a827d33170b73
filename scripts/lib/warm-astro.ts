import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { BuildOptions } from '../build-site.ts';
import type { BuildReply, BuildRequest } from './astro-build-worker.ts';
import { ROOT, collectOutput, quietEnv } from './tools.ts';

export type WarmAstroOptions = {
  /** The process goes after this long without a build, and its memory with it (a VPS has little). */
  idleMs?: number;
  /** …and after this many builds: Astro keeps a few MB of each build it made. */
  maxBuilds?: number;
  /** …and after a build that leaves it holding more than this (MB of resident memory). */
  maxRssMb?: number;
  /**
   * When a process goes after a build for its memory or its count of builds, a new one starts at
   * once and loads Astro while nothing is built (it still goes when idle); on by default.
   */
  prewarm?: boolean;
};

/**
 * The build process's memory, measured on the demo and at 150 and 1,500 cabins (bench/memory.ts).
 * Left to their defaults on a machine with plenty of memory, V8's young generation grew to 128 MB
 * and its old one held the garbage of the last build; 256 MB of old space builds 1,500 cabins,
 * and V8 sized for memory rather than speed (as the server, ../serve.ts) builds in the same time.
 * Vite's bundler (rolldown, Rust) allocates with mimalloc, which kept what a build freed mapped
 * until it allocated again and committed its arenas ahead of use: about 200 MB of the 600–670 MB
 * a process held after a demo build. Purged at once here, and committed as used.
 */
const BUILD_EXEC_ARGV = ['--optimize-for-size', '--max-semi-space-size=4', '--max-old-space-size=256'];
const BUILD_ENV = { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ARENA_EAGER_COMMIT: '0' };
/**
 * The process grows by 20–40 MB a build (Astro and Vite keep some of each): past this it goes, and
 * the next build loads Astro again (~3 s more). After a demo build it holds 330–400 MB.
 */
const MAX_RSS_MB = 400;
/**
 * Each build imports its own copy of the rendered site's modules (astro-build-worker.ts), which
 * Node never unloads: measured on the demo (2026-11-28), a process's peak during a build was
 * 292 MB in its first build and 341, 360, 374, 388, 395 MB in the next five (a full GC after each
 * changed nothing). The peak of a burst of saves was the warm process's tenth build, 400–450 MB
 * of the 600 MB budget. After three it goes, and `prewarm` has the next one loaded: its first
 * build took 2.6 s against 2.1 s warm and 3.2–3.6 s from a cold start.
 */
const MAX_BUILDS = 3;

/**
 * Renders the site with Astro kept loaded between builds, for the services that rebuild after
 * every edit (`npm start`, `npm run serve`). Measured here: a cold `astro build` of the demo took
 * ~5 s and ~6 s of CPU, a build in a warm process ~1.8 s and ~2.4 s of CPU. An owner's edits come
 * in bursts, so the process stays for `idleMs` after a build and then goes. A failed or stopped
 * build ends its process: the next one starts clean. The one-shot builds (deploy, build:site)
 * keep the plain `astro build`.
 */
export function warmAstro(options: WarmAstroOptions = {}) {
  const idleMs = options.idleMs ?? 120_000;
  const maxBuilds = options.maxBuilds ?? MAX_BUILDS;
  const maxRssMb = options.maxRssMb ?? MAX_RSS_MB;
  const prewarm = options.prewarm ?? true;
  let worker: { child: ChildProcess; key: string; builds: number } | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  function close() {
    clearTimeout(idleTimer);
    worker?.child.kill();
    worker = null;
  }

  function start(env: Record<string, string>, key: string) {
    const child = fork(path.join(ROOT, 'scripts/lib/astro-build-worker.ts'), [], {
      cwd: ROOT,
      // After the parent's own flags, so these win over a larger heap given to it.
      execArgv: [...process.execArgv, ...BUILD_EXEC_ARGV],
      env: quietEnv({ ...BUILD_ENV, ...env }),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // Never what keeps the server (or a test run) alive between builds.
    hold(child, false);
    return { child, key, builds: 0 };
  }

  async function render(outDir: string, env: Record<string, string>, opts: BuildOptions): Promise<void> {
    clearTimeout(idleTimer);
    opts.signal?.throwIfAborted();
    // What a process reads once (the config's API and site addresses, NODE_ENV) must not change under it.
    const { BUILD_CONTENT_VERSION: _version, ...lasting } = env;
    const key = JSON.stringify(lasting);
    if (worker && (worker.key !== key || !alive(worker.child))) close();
    worker ??= start(env, key);
    const { child } = worker;
    worker.builds += 1;
    const output = collectOutput(child, opts.quiet);
    // Held while a build runs, so a script with nothing else to wait on waits for it.
    hold(child, true);
    let rssMb = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const failed = (why: string, error = '') => {
          const text = output.text();
          // The output ends with the error, unless the reply came before the pipe's last lines.
          const tail = error && !text.includes(error) ? `${text}\n${error}` : text;
          reject(new Error(`astro build ${why}\n${tail.slice(-4000)}`));
        };
        // Whichever comes first (the reply, the process's end, the server stopping) settles the
        // build and removes all three listeners: the process lives on for the next build.
        const settle = (outcome: () => void) => {
          child.off('message', onMessage);
          child.off('exit', onExit);
          opts.signal?.removeEventListener('abort', onAbort);
          outcome();
        };
        const onMessage = (reply: BuildReply) =>
          settle(() => {
            if (!reply.ok) return failed('failed', reply.error);
            rssMb = reply.rssMb;
            resolve();
          });
        const onExit = (code: number | null, signal: string | null) => settle(() => failed(`exited ${code ?? signal}`));
        const onAbort = () =>
          settle(() => {
            child.kill();
            reject(opts.signal!.reason);
          });
        child.on('message', onMessage);
        child.on('exit', onExit);
        opts.signal?.addEventListener('abort', onAbort);
        child.send({ outDir, env: { ...env, SITE_OUT_DIR: outDir } } satisfies BuildRequest);
      });
    } catch (err) {
      close();
      throw err;
    } finally {
      hold(child, false);
      output.stop();
    }
    if (worker && (worker.builds >= maxBuilds || rssMb > maxRssMb)) {
      close();
      // The next edit of a burst would wait for Node to load Astro, Vite and React again (about a
      // second of a one-cabin edit's three, bench/speed-changes.md): a new process loads them
      // now, between the edits. It holds far less than the one that went, and goes when idle.
      if (prewarm) worker = start(env, key);
    }
    idleTimer = setTimeout(close, idleMs);
    idleTimer.unref?.();
  }

  /** The warm process's id while it lives (the tests check it goes). */
  const pid = (): number | null => (worker && alive(worker.child) ? (worker.child.pid ?? null) : null);

  return { render, close, pid };
}

/** Neither exited nor sent a signal to end it. */
const alive = (child: ChildProcess) => child.exitCode === null && !child.killed;

/** Whether the process, its IPC channel and its output pipes keep this one's event loop alive. */
function hold(child: ChildProcess, held: boolean) {
  for (const handle of [child, child.channel, child.stdout, child.stderr] as (
    | { ref?: () => void; unref?: () => void }
    | null
    | undefined
  )[]) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}
