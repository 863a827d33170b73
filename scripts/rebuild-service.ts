import { createServer, type Server } from 'node:http';
import { buildSite, type BuildOptions } from './build-site.ts';

export type BuilderState = {
  state: 'idle' | 'building' | 'failed';
  error: string | null;
  lastSuccessAt: string | null;
  lastBuildMs: number | null;
  builtVersion: number | null;
};

/**
 * The local stand-in for a production deploy hook: POST asks for a rebuild, GET tells the
 * state. Bursts coalesce: while a build runs, any number of requests make one more build.
 */
export function createRebuilder(opts: BuildOptions) {
  const status: BuilderState = { state: 'idle', error: null, lastSuccessAt: null, lastBuildMs: null, builtVersion: null };
  let running: Promise<void> | null = null;
  let pending = false;

  async function loop() {
    do {
      pending = false;
      status.state = 'building';
      try {
        const { contentVersion, ms } = await buildSite({ ...opts, quiet: true });
        Object.assign(status, { state: 'idle', error: null, lastSuccessAt: new Date().toISOString(), lastBuildMs: ms, builtVersion: contentVersion });
        console.log(`[rebuild] site updated to content version ${contentVersion} in ${(ms / 1000).toFixed(1)} s`);
      } catch (err) {
        status.state = 'failed';
        status.error = err instanceof Error ? err.message.split('\n').slice(0, 6).join('\n') : String(err);
        if (opts.signal?.aborted) console.log('[rebuild] build stopped with the server; the next start builds the current content.');
        else console.error('[rebuild] build failed; the previous site keeps serving.\n', status.error);
      }
    } while (pending);
  }

  /** Starts a build (or queues one after the running build); resolves when the site is current. */
  function request(): Promise<void> {
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

  return { status, request, idle };
}

/** A file the local service also serves by GET (the demo calendar feed of `npm start`). */
export type ServedFile = () => { type: string; body: string };

export function startRebuildService(rebuilder: ReturnType<typeof createRebuilder>, port: number, files: Record<string, ServedFile> = {}): Promise<Server> {
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
