import { createServer, type Server } from 'node:http';
import { buildSite, type BuildOptions, type BuildResult } from './build-site.ts';
import { warmAstro } from './lib/warm-astro.ts';
import { MSG } from '../schema/messages.ts';
import { isStorageFull } from '../worker/platform/ports.ts';

export type BuilderState = {
  state: 'idle' | 'building' | 'failed';
  /** The end of the failed build's output (the whole of it is in the log). */
  error: string | null;
  /** The failure's cause in plain Russian, when it is one the owner can fix (the disk full); the panel shows it. */
  cause: string | null;
  lastSuccessAt: string | null;
  lastBuildMs: number | null;
  builtVersion: number | null;
  /** The last build rendered only the pages whose data changed (null before the first build). */
  lastBuildPartial: boolean | null;
  /**
   * Set when the last build could not render only what changed and built every page instead: the
   * site is current, the panel says so with the reason (the whole of it is in the log).
   */
  fallback: string | null;
};

export type RebuilderOptions = BuildOptions & {
  /** After a failed build, try again after each of these pauses in turn, then wait for the next edit. */
  retryDelaysMs?: number[];
  /** The build itself (tests give one that fails). */
  build?: (opts: BuildOptions) => Promise<Pick<BuildResult, 'contentVersion' | 'ms'> & Partial<BuildResult>>;
  /** A build starts once edits have paused this long (default SETTLE_MS). */
  settleMs?: number;
};

/** A failed build is tried again after 10 s, 1 min and 5 min (a full disk freed, a hiccup of the API). */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000];

/**
 * Edits come in bursts: a form saves several rows, the owner hides ten reviews one after another.
 * Each asks for a build; a build that starts at the first one is stale by the second, and the next
 * must follow it (on a small server each costs seconds of CPU). So a build waits until the
 * requests pause this long, and never more than SETTLE_MAX_MS after the first of them. The
 * requests of one save come back to back (tens of ms apart); an edit of one cabin goes live in
 * about 3 s in all, so every 100 ms of waiting here is felt.
 */
export const SETTLE_MS = 250;
const SETTLE_MAX_MS = 2_000;

/**
 * How long the content may stay ahead of an idle builder before it builds by itself: longer than
 * a request takes to arrive after its edit, so a request on its way is not doubled.
 */
export const CATCH_UP_AFTER_MS = 5_000;

/**
 * The end of a build's error, where its cause is: Astro prints its warnings first and the error
 * last, so the first lines (what the status kept before) told the owner nothing.
 */
export function errorTail(message: string, lines = 15): string {
  return message
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-lines)
    .join('\n');
}

/**
 * The local stand-in for a production deploy hook: POST asks for a rebuild, GET tells the
 * state. Bursts coalesce: while a build runs, any number of requests make one more build.
 */
export function createRebuilder(opts: RebuilderOptions) {
  // opts is read when each build starts, never copied here: serve.ts gives apiUrl as a getter,
  // known only once the server listens.
  const retryDelaysMs = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  const build = opts.build ?? buildSite;
  // Edits come one after another: Astro stays loaded between their builds (lib/warm-astro.ts).
  const render = opts.render ?? warmAstro().render;
  const status: BuilderState = {
    state: 'idle',
    error: null,
    cause: null,
    lastSuccessAt: null,
    lastBuildMs: null,
    builtVersion: null,
    lastBuildPartial: null,
    fallback: null,
  };
  let running: Promise<void> | null = null;
  let pending = false;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const settleMs = opts.settleMs ?? SETTLE_MS;
  let lastRequestAt = 0;

  /** Resolves once the requests have paused settleMs (or SETTLE_MAX_MS has passed). */
  async function settled() {
    const latest = Date.now() + SETTLE_MAX_MS;
    for (;;) {
      const wait = Math.min(lastRequestAt + settleMs, latest) - Date.now();
      if (wait <= 0 || opts.signal?.aborted) return;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  async function loop() {
    do {
      status.state = 'building';
      await settled();
      pending = false;
      try {
        const {
          contentVersion,
          ms,
          partial = false,
          pages,
          fallback = null,
        } = await build({ ...opts, render, quiet: true });
        Object.assign(status, {
          state: 'idle',
          error: null,
          cause: null,
          lastSuccessAt: new Date().toISOString(),
          lastBuildMs: ms,
          builtVersion: contentVersion,
          lastBuildPartial: partial,
          fallback: fallback && errorTail(fallback),
        });
        retries = 0;
        const what = partial ? `${pages} changed pages` : 'every page';
        console.log(
          `[rebuild] site updated to content version ${contentVersion} in ${(ms / 1000).toFixed(1)} s (${what})`,
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        status.state = 'failed';
        status.error = errorTail(message);
        status.cause = isStorageFull(err) ? MSG.buildStorageFull : null;
        if (opts.signal?.aborted)
          console.log('[rebuild] build stopped with the server; the next start builds the current content.');
        // The whole output's tail goes to the log; the status keeps its last lines for the panel.
        else console.error(`[rebuild] build failed; the previous site keeps serving.\n${message}`);
      }
    } while (pending);
    if (status.state === 'failed' && !opts.signal?.aborted && retries < retryDelaysMs.length) {
      const delay = retryDelaysMs[retries++]!;
      console.error(
        `[rebuild] trying again in ${Math.round(delay / 1000)} s (attempt ${retries + 1}); an edit tries at once.`,
      );
      retryTimer = setTimeout(() => void start(), delay);
      retryTimer.unref?.();
    }
  }

  /** Starts a build (or queues one after the running build); resolves when the site is current. */
  function request(): Promise<void> {
    // An edit (or the owner's «Повторить») starts the retries over.
    retries = 0;
    lastRequestAt = Date.now();
    return start();
  }

  function start(): Promise<void> {
    clearTimeout(retryTimer);
    if (running) {
      pending = true;
      return running;
    }
    running = loop().finally(() => {
      running = null;
    });
    return running;
  }

  /** Resolves once no build runs or waits (the server's shutdown waits for a swap under way). */
  function idle(): Promise<void> {
    return running ?? Promise.resolve();
  }

  let behindSince: number | null = null;
  /**
   * Told the API's content version now and then (the local stack's check that the site answers):
   * content left ahead of the last build for CATCH_UP_AFTER_MS with no build running or failed
   * means a request for it never came (the worker's call to this service is lost when wrangler
   * restarts, or its connection drops), so the edit is built now rather than at the next one.
   */
  function catchUp(contentVersion: number, now = Date.now()): void {
    const behind =
      !running && status.state === 'idle' && status.builtVersion !== null && contentVersion > status.builtVersion;
    if (!behind) {
      behindSince = null;
      return;
    }
    behindSince ??= now;
    if (now - behindSince < CATCH_UP_AFTER_MS) return;
    behindSince = null;
    console.log(
      `[rebuild] content version ${contentVersion} was never asked to be built (the site has ${status.builtVersion}); building it now`,
    );
    void request();
  }

  return { status, request, idle, catchUp };
}

/** A file the local service also serves by GET (the demo calendar feed of `npm start`). */
export type ServedFile = () => { type: string; body: string };

export function startRebuildService(
  rebuilder: ReturnType<typeof createRebuilder>,
  port: number,
  files: Record<string, ServedFile> = {},
): Promise<Server> {
  const server = createServer((req, res) => {
    const file = req.method === 'GET' ? files[new URL(req.url ?? '/', 'http://x').pathname] : undefined;
    if (file) {
      const { type, body } = file();
      res.writeHead(200, { 'content-type': type }).end(body);
      return;
    }
    if (req.method === 'POST') void rebuilder.request();
    else if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    req.resume();
    res.writeHead(req.method === 'POST' ? 202 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(rebuilder.status));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
