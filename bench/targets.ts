import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { scheduledUrl, startStack } from '../scripts/lib/stack.ts';
import { ROOT, quietEnv, waitFor } from '../scripts/lib/tools.ts';
import { openSqlite } from '../worker/platform/node/sqlite.ts';
import { growCabins, growCabinsIn } from './cabins.ts';
import type { ControlAnswer } from './control-answer.ts';
import { adminLogin } from './edit-to-live.ts';
import { startFloorServer } from './floor.ts';

/** One production target as the bench drives it. */
export type Served = {
  url: string;
  /** The directory of the built site it serves (to count pages). */
  siteDir: string;
  /** Waits until its builder has nothing running or queued. */
  waitIdle(): Promise<void>;
  /** Rebuilds the whole site now and resolves when it is live. */
  rebuild(): Promise<void>;
  builderState(): Promise<{ state: string; error: string | null }>;
  /** Clones demo cabins straight into its database (no rebuild). */
  growCabins(targetActive: number): Promise<{ active: number; total: number }>;
  /** wrangler dev's trigger of the schedule (Workers only): the Cron Trigger's tick run at once. */
  scheduledUrl?: string;
  stop(): Promise<void>;
};

export type Target = {
  key: 'workers' | 'node';
  label: string;
  /** How it serves, for the report. */
  serving: string;
  /**
   * Production puts a compressing CDN edge in front (Cloudflare) that the local server lacks:
   * the bench loads its pages through a stand-in (bench/caddy.ts startCompressingEdge).
   */
  compressingEdge?: boolean;
  /** `avitoApiUrl`: the Avito API the server talks to (the channel stage's own stand-in). */
  start(log: (line: string) => void, opts?: StartOptions): Promise<Served>;
  /** The control: a server of the same runtime that only gives a fixed answer (bench/floor). */
  startControl(): Promise<{ url: string; stop: () => Promise<void> }>;
  /** Which bytes of a route's answer the control is given (bench/control-answer.ts). */
  controlAnswer: ControlAnswer;
};

export type StartOptions = { avitoApiUrl?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The variables `npm run serve` sets before `node scripts/serve.ts` (package.json), which the
 * bench starts directly: the server it measures runs as an owner's does (MALLOC_ARENA_MAX…).
 */
export function serveScriptEnv(): Record<string, string> {
  const script =
    (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
      .serve ?? '';
  return Object.fromEntries([...script.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

async function pollIdle(state: () => Promise<{ state: string; compressing?: boolean }>, timeoutMs = 15 * 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Self-hosted, a build's pages go live with quick compressed twins, made best right after:
    // what is measured next (page weight, Lighthouse) is the site as it stays.
    const s = await state();
    if (s.state !== 'building' && !s.compressing) return;
    await sleep(250);
  }
  throw new Error('The builder stayed busy');
}

export function workersTarget(port: number, adminPassword: string): Target {
  const persistTo = '.wrangler/bench-state';
  const assetsDir = 'node_modules/.cache/bench-dist';
  return {
    key: 'workers',
    label: 'Cloudflare Workers (wrangler dev)',
    serving:
      "`wrangler dev` (workerd, local D1 and R2) as `npm start` serves it, with the worker bundled once as `wrangler deploy` bundles it (no esbuild watching its code on the bench's cores, as in production). wrangler dev does not compress, Cloudflare's edge does: Lighthouse loads the pages through a stand-in for the edge (Caddy `reverse_proxy` with `encode gzip`); the API and static-file rows go to wrangler dev directly",
    compressingEdge: true,
    async start(log, opts) {
      await rm(path.join(ROOT, persistTo), { recursive: true, force: true });
      await rm(path.join(ROOT, assetsDir), { recursive: true, force: true });
      // A later --var wins over the stack's own AVITO_API_URL (its demo stand-in has 30 listings).
      const vars = opts?.avitoApiUrl ? { AVITO_API_URL: opts.avitoApiUrl } : undefined;
      const stack = await startStack({
        port,
        persistTo,
        assetsDir,
        adminPassword,
        vars,
        workerBundleDir: 'node_modules/.cache/bench-worker',
        log: (line) => log(line.trim()),
      });
      const builderState = async () =>
        (await fetch(stack.rebuildUrl).then((r) => r.json())) as { state: string; error: string | null };
      return {
        url: stack.url,
        siteDir: path.join(ROOT, assetsDir),
        waitIdle: () => pollIdle(builderState),
        rebuild: stack.rebuild,
        builderState,
        growCabins: (n) => growCabins(path.join(ROOT, persistTo), n),
        scheduledUrl: scheduledUrl(stack.url),
        stop: stack.stop,
      };
    },
    startControl: () => startFloorServer(port + 10),
    controlAnswer: 'uncompressed',
  };
}

export function nodeTarget(port: number, adminPassword: string): Target {
  const dataDir = path.join(ROOT, 'node_modules/.cache/bench-node-data');
  const url = `http://127.0.0.1:${port}`;
  let cookie = '';
  const signIn = async () => {
    cookie = await adminLogin(url, adminPassword);
  };
  const admin = async (method: string, p: string, body?: unknown) => {
    if (!cookie) await signIn();
    const ask = () =>
      fetch(`${url}/api${p}`, {
        method,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    let res = await ask();
    // A session lasts 30 minutes from its sign-in (the spec's), and the self-hosted stages take
    // longer than that: the owner would sign in again, and so does the bench.
    if (res.status === 401) {
      await res.body?.cancel();
      await signIn();
      res = await ask();
    }
    if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}`);
    return res.json() as Promise<{
      upToDate: boolean;
      contentVersion: number;
      builder: { state: string; error: string | null } | null;
    }>;
  };
  const builderState = async () => {
    const s = await admin('GET', '/admin/publish');
    return s.builder ?? { state: 'idle', error: null };
  };
  return {
    key: 'node',
    label: 'Self-hosted (npm run serve, Node 24)',
    serving: '`npm run serve` (Node 24, SQLite file, media folder) as an owner runs it, precompressed brotli/gzip',
    async start(log, opts) {
      await rm(dataDir, { recursive: true, force: true });
      let out = '';
      const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
        cwd: ROOT,
        env: quietEnv({
          ...serveScriptEnv(),
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          SEED_DEMO: '1',
          ADMIN_PASSWORD: adminPassword,
          ...(opts?.avitoApiUrl ? { AVITO_API_URL: opts.avitoApiUrl } : {}),
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => (out += d));
      child.stderr!.on('data', (d: Buffer) => (out += d));
      const exited = new Promise<never>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`npm run serve exited ${code}: ${out.slice(-2000)}`))),
      );
      log(`• Starting npm run serve on ${url} (seeds the demo content, builds the site)…`);
      await Promise.race([waitFor(`${url}/build.json`, 15 * 60_000), exited]);
      exited.catch(() => {});
      return {
        url,
        siteDir: path.join(dataDir, 'site'),
        waitIdle: () => pollIdle(builderState),
        async rebuild() {
          // Any public write makes the server rebuild in-process; an empty settings save changes nothing else.
          const before = (await admin('GET', '/admin/publish')).contentVersion;
          await admin('PUT', '/settings', {});
          const deadline = Date.now() + 15 * 60_000;
          while (Date.now() < deadline) {
            await sleep(250);
            const s = await admin('GET', '/admin/publish');
            if (s.builder?.state === 'failed') return;
            if (s.upToDate && s.contentVersion > before && s.builder?.state !== 'building') return;
          }
          throw new Error('The site was not rebuilt in 15 minutes');
        },
        builderState,
        async growCabins(n) {
          const db = openSqlite(path.join(dataDir, 'kaspiy.sqlite'));
          try {
            return await growCabinsIn({ DB: db }, n);
          } finally {
            db.close();
          }
        },
        async stop() {
          if (child.exitCode !== null) return;
          const gone = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await gone;
        },
      };
    },
    controlAnswer: 'as-sent',
    async startControl() {
      const controlPort = port + 10;
      const child = spawn(process.execPath, [path.join(ROOT, 'bench/floor/node-server.ts'), String(controlPort)], {
        stdio: 'ignore',
      });
      await waitFor(`http://127.0.0.1:${controlPort}/`);
      return {
        url: `http://127.0.0.1:${controlPort}`,
        async stop() {
          const gone = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await gone;
        },
      };
    },
  };
}
