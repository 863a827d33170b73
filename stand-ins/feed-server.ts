// Other platforms' calendars served on 127.0.0.1 for the contract tests on both runtimes: a test
// inside workerd cannot start a server, so it puts a feed here over HTTP (PUT /_feeds/NAME) and
// the app under test reads GET /NAME like any platform's export. A feed answers its ETag and
// Last-Modified with 304 as a platform that throttles readers does, and every read is logged with
// the validators it carried (GET /_feeds/NAME/reads). A feed may answer slowly (`delayMs`).
import type { Server } from 'node:http';
import { steadyServer } from './steady-server.ts';
import type { AddressInfo } from 'node:net';

/** `delayMs`: how long the platform takes to answer (real platforms' feeds take most of a second). */
type Feed = {
  status: number;
  body: string;
  contentType: string;
  etag?: string;
  lastModified?: string;
  delayMs?: number;
};
type Read = { at: string; ifNoneMatch: string | null; ifModifiedSince: string | null; status: number };

export async function startFeedServer(): Promise<{ url: string; close(): Promise<void> }> {
  const feeds = new Map<string, Feed>();
  const reads = new Map<string, Read[]>();
  const server: Server = steadyServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const control = /^\/_feeds\/([\w.-]+)(\/reads)?$/.exec(url.pathname);
    if (control) {
      const name = control[1]!;
      if (control[2])
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(reads.get(name) ?? []));
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const f = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Partial<Feed>;
        feeds.set(name, {
          status: f.status ?? 200,
          body: f.body ?? '',
          contentType: f.contentType ?? 'text/calendar; charset=utf-8',
          etag: f.etag,
          lastModified: f.lastModified,
          delayMs: f.delayMs,
        });
        res.writeHead(204).end();
      });
      return;
    }
    const name = url.pathname.slice(1);
    const feed = feeds.get(name);
    const inm = req.headers['if-none-match'] ?? null;
    const ims = req.headers['if-modified-since'] ?? null;
    const log = (status: number) =>
      reads.set(name, [
        ...(reads.get(name) ?? []),
        {
          at: new Date().toISOString(),
          ifNoneMatch: inm as string | null,
          ifModifiedSince: ims as string | null,
          status,
        },
      ]);
    if (!feed) {
      log(404);
      return void res.writeHead(404).end('not found');
    }
    const headers: Record<string, string> = { 'content-type': feed.contentType };
    if (feed.etag) headers.etag = feed.etag;
    if (feed.lastModified) headers['last-modified'] = feed.lastModified;
    if (
      feed.status === 200 &&
      ((feed.etag && inm === feed.etag) || (!inm && feed.lastModified && ims === feed.lastModified))
    ) {
      log(304);
      return void res.writeHead(304, headers).end();
    }
    log(feed.status);
    setTimeout(() => res.writeHead(feed.status, headers).end(feed.body), feed.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
