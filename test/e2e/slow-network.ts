// A slow network in front of the site: a real HTTP server on 127.0.0.1 that sends every HTML page
// in small pieces with a pause after each, as a weak mobile network delivers it, so the browser
// paints the page many times while it is still arriving. Everything else (styles, photos, the
// API) passes straight through. GET only: it is for loading pages. Tests use it to see what moves while a page arrives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Headers that describe the upstream body, not the one this server sends. */
const BODY_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface SlowNetwork {
  url: string;
  close(): Promise<void>;
}

export async function startSlowNetwork(target: string, { chunkBytes = 150, pauseMs = 10 } = {}): Promise<SlowNetwork> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(new URL(req.url ?? '/', target), {
        headers: { 'accept-encoding': 'identity' },
        redirect: 'manual',
      });
      res.writeHead(
        upstream.status,
        Object.fromEntries([...upstream.headers].filter(([name]) => !BODY_HEADERS.has(name))),
      );
      const body = Buffer.from(await upstream.arrayBuffer());
      if (!upstream.headers.get('content-type')?.startsWith('text/html')) return void res.end(body);
      for (let at = 0; at < body.length && !res.destroyed; at += chunkBytes) {
        res.write(body.subarray(at, at + chunkBytes));
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      res.end();
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
