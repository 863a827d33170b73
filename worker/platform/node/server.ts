import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createServer, type IncomingMessage, type RequestListener, type ServerOptions } from 'node:http';
import { compressResponse } from './compress-response.ts';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { appMemory } from './app-memory.ts';
import { writeAnswer } from './memory-answers.ts';
import type { StaticFiles } from './static-site.ts';
import type { Bindings } from '../../env.ts';
import { publicReadsChangeAt } from '../../queries/public-reads.ts';
import { jobsOfTick, runSchedule } from '../../scheduled.ts';
import app from '../../index.ts';
import { forLog } from '../../lib/for-log.ts';
import { startMessengerPolling } from './messenger-polling.ts';
import type { RebuildPort } from '../ports.ts';
import { clientAddressOf, openNodeStorage, type NodeStorage, type NodeStorageOptions } from './bindings.ts';

export type NodeServerOptions = NodeStorageOptions & {
  port: number;
  host: string;
  /** The public address (https://…): its scheme is the one visitors use behind the proxy. */
  siteUrl?: string;
  /** Take the client address and scheme from the proxy's headers. */
  trustedProxy?: boolean;
  adminPassword?: string;
  rebuild?: RebuildPort;
  /** More settings and ports for every request (notifications, SITE_URL for links). */
  bindings?: Partial<Bindings>;
  /**
   * The schedule's tick (the Cron Trigger's twin, worker/scheduled.ts: a minute in production): each
   * tick sends changes to Avito, every 5th reads feeds and Avito, every 15th does the upkeep. Off when absent.
   */
  scheduleTickMs?: number;
  /**
   * Read the guests' Telegram and MAX bots by long polling (where the bot has no webhook) rather
   * than in the schedule's minute: `npm run serve` does.
   */
  longPollMessengers?: boolean;
  /** How long close() waits for background work (notification retries, a rebuild request). */
  shutdownGraceMs?: number;
  /** Answers before the app (the built site's files); undefined falls through to the app. */
  staticFiles?: StaticFiles;
};

export type NodeServer = {
  url: string;
  storage: NodeStorage;
  /** Stops accepting, finishes requests and background tasks in flight, closes SQLite. */
  close(): Promise<void>;
};

/**
 * The request as the visitor made it. Behind the proxy the socket speaks plain http; the
 * visitor's scheme is SITE_URL's (for its host) or, from a trusted proxy, X-Forwarded-Proto
 * (and X-Forwarded-Host, where the proxy does not pass Host on). CSRF checks compare the Origin
 * header with this URL, so it must say https when the visitor did.
 */
function visitorRequest(req: Request, siteUrl: URL | null, trustedProxy: boolean): Request {
  const url = new URL(req.url);
  const before = url.href;
  if (trustedProxy) {
    const host = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    const forwarded = host ? /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(host) : null;
    if (forwarded) {
      url.hostname = forwarded[1]!;
      url.port = forwarded[2] ?? '';
    }
    const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    if (proto === 'https' || proto === 'http') url.protocol = `${proto}:`;
  }
  if (siteUrl && url.host === siteUrl.host) url.protocol = siteUrl.protocol;
  return url.href === before ? req : new Request(url, req);
}

/** How much of a refused body is read before the connection closes, and for how long. */
const REST_MAX_BYTES = 16 * 1024 * 1024;
const REST_MAX_MS = 2_000;

/** Reads and drops what is left of a request's body, up to REST_MAX_BYTES or REST_MAX_MS. */
function readRest(incoming: IncomingMessage): Promise<void> {
  if (incoming.complete || incoming.destroyed || incoming.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', count);
      incoming.off('end', done);
      incoming.off('close', done);
      incoming.off('error', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > REST_MAX_BYTES) done();
    };
    const timer = setTimeout(done, REST_MAX_MS);
    // The Request's body stream, which nobody reads any more, still listens: it kept what came
    // and paused the socket once its queue was full, so the rest went unread until the timeout.
    // Only the count listens now, and what is dropped is not kept.
    incoming.removeAllListeners('data');
    incoming.on('data', count);
    incoming.once('end', done);
    incoming.once('close', done);
    incoming.once('error', done);
    incoming.resume();
  });
}

/** The self-hosted server: the same Hono app as on Workers, over SQLite and a media folder. */
export async function startNodeServer(opts: NodeServerOptions): Promise<NodeServer> {
  const storage = await openNodeStorage(opts);
  const siteUrl = opts.siteUrl ? new URL(opts.siteUrl) : null;
  const trusted = opts.trustedProxy ?? false;
  const background = new Set<Promise<unknown>>();
  const bindings = { ...storage.bindings, ...opts.bindings };
  const kept = appMemory({
    db: storage.db,
    dbDir: path.dirname(storage.paths.dbFile),
    siteDir: storage.paths.siteDir,
    trustedProxy: trusted,
    changesAt: (ms) => publicReadsChangeAt(storage.bindings, ms),
  });

  const fetch = async (raw: Request, node: HttpBindings | Http2Bindings): Promise<Response> => {
    const begun = kept.begin(node.incoming as IncomingMessage);
    const req = visitorRequest(raw, siteUrl, trusted);
    const file =
      opts.staticFiles && (req.method === 'GET' || req.method === 'HEAD') ? await opts.staticFiles(req) : undefined;
    if (file) return file;
    const ctx = {
      waitUntil(task: Promise<unknown>) {
        const tracked = task
          .catch((err) => console.error('Background task failed', forLog(err)))
          .finally(() => background.delete(tracked));
        background.add(tracked);
      },
      passThroughOnException() {},
      props: {},
    };
    const res = await kept.keep(
      begun,
      await compressResponse(
        req,
        await app.fetch(req, { ...bindings, CLIENT_ADDRESS: clientAddressOf(node.incoming, trusted) }, ctx),
      ),
    );
    // A refused write may be answered before its whole body arrived (too large, not signed in):
    // the rest may still be on its way, so the connection is not reused for the next request.
    // What is left of a modest body is read first: closing on a client still sending makes its
    // next write fail (EPIPE) before it reads the answer, and the owner whose session ended
    // mid-upload would see a broken connection instead of «войдите снова».
    if (res.status >= 400 && req.method !== 'GET' && req.method !== 'HEAD') {
      await readRest(node.incoming as IncomingMessage);
      const closing = new Response(res.body, res);
      closing.headers.set('connection', 'close');
      return closing;
    }
    return res;
  };

  // An answer already in memory (a site file, a public read with unchanged data) is written
  // straight to the socket; everything else goes through Hono.
  const withMemory = (options: ServerOptions, listener: RequestListener) =>
    createServer(options, (incoming, outgoing) => {
      const answer = opts.staticFiles?.fromMemory(incoming) ?? kept.fromMemory(incoming);
      if (answer) writeAnswer(incoming, outgoing, answer);
      else listener(incoming, outgoing);
    });
  const server = serve({
    fetch,
    port: opts.port,
    hostname: opts.host,
    createServer: withMemory as typeof createServer,
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;

  const polling = opts.longPollMessengers ? startMessengerPolling(bindings) : undefined;
  // A tick still running when the next is due is not doubled: the next waits for the one after.
  let tick = 0;
  let running: Promise<void> | null = null;
  const feedTimer = opts.scheduleTickMs
    ? setInterval(() => {
        const n = tick++;
        if (running) return;
        const jobs = { ...jobsOfTick(n), messengers: !polling };
        const run = (running = runSchedule(bindings, jobs)
          .catch((err) => console.error('Scheduled tasks failed', forLog(err)))
          .finally(() => {
            running = null;
            background.delete(run);
          }));
        background.add(run);
      }, opts.scheduleTickMs)
    : undefined;
  feedTimer?.unref();

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(feedTimer);
      kept.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; busy ones finish their request.
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      const grace = new Promise((r) => setTimeout(r, opts.shutdownGraceMs ?? 10_000).unref());
      await Promise.race([Promise.allSettled([...background, polling?.stop()]), grace]);
      storage.close();
    })());
  return { url, storage, close };
}
