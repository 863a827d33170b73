import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { steadyServer } from './steady-server.ts';

/**
 * A stand-in for Yandex Metrika's host (METRIKA_URL) on 127.0.0.1. `GET /metrika/tag.js` is a
 * small tag that behaves as the real one does towards the page: it takes the `ym(...)` calls the
 * page queued before it loaded (`ym.a`), then answers every later call itself, and watches
 * `window.dataLayer` for e-commerce pushes. Each call and each push goes back to the stand-in as
 * a request (`POST /watch`, sent by `navigator.sendBeacon`, so one made just before the page
 * navigates away still arrives) carrying the page's address and referrer (init's `url` and
 * `referrer` when it names them), as the real tag's hits do: a test can see exactly what Metrika
 * would have seen.
 *
 * The tests drive it over HTTP:
 * - `GET /_stand-in/requests`: every request it got (the tag itself too), oldest first;
 * - `POST /_stand-in/reset`: forgets them.
 */
export type MetrikaRequest = {
  method: string;
  /** The path and query as asked. */
  path: string;
  referer: string | null;
  /** A hit's body: `{ call: [...ym arguments] }` or `{ push: {...dataLayer entry} }`, with `url` and `referrer`. */
  body: MetrikaHit | null;
};
export type MetrikaHit = { url: string; referrer: string; call?: unknown[]; push?: unknown };

/** The tag: plain ES2015, no module, as a page's `<script async src>` runs it. */
const tag = (origin: string) => `(function () {
  var page = { url: null, referrer: null };
  var send = function (hit) {
    var call = hit.call || [];
    // As the real tag: init's own url and referrer, when given, stand for the page's.
    if (call[1] === 'init' && call[2]) {
      if (typeof call[2].url === 'string') page.url = call[2].url;
      if (typeof call[2].referrer === 'string') page.referrer = call[2].referrer;
    }
    hit.url = page.url === null ? location.href : page.url;
    hit.referrer = page.referrer === null ? document.referrer : page.referrer;
    navigator.sendBeacon(${JSON.stringify(`${origin}/watch`)}, JSON.stringify(hit));
  };
  var queued = (window.ym && window.ym.a) || [];
  window.ym = function () { send({ call: Array.prototype.slice.call(arguments) }); };
  for (var i = 0; i < queued.length; i++) window.ym.apply(null, Array.prototype.slice.call(queued[i]));
  var layer = (window.dataLayer = window.dataLayer || []);
  for (var j = 0; j < layer.length; j++) send({ push: layer[j] });
  var push = layer.push;
  layer.push = function () {
    for (var k = 0; k < arguments.length; k++) send({ push: arguments[k] });
    return push.apply(layer, arguments);
  };
})();
`;

export async function startMetrikaStandIn(): Promise<{
  url: string;
  requests: MetrikaRequest[];
  close: () => Promise<void>;
}> {
  const requests: MetrikaRequest[] = [];
  let origin = '';
  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      if (path === '/_stand-in/requests')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requests));
      if (path === '/_stand-in/reset' && req.method === 'POST') {
        requests.length = 0;
        return res.writeHead(204).end();
      }
      let body: MetrikaHit | null = null;
      try {
        body = raw ? (JSON.parse(raw) as MetrikaHit) : null;
      } catch {}
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', referer: req.headers.referer ?? null, body });
      if (req.method === 'GET' && path === '/metrika/tag.js')
        return res
          .writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' })
          .end(tag(origin));
      if (req.method === 'POST' && path === '/watch')
        return res.writeHead(200, { 'access-control-allow-origin': '*' }).end();
      res.writeHead(404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
