import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { steadyServer } from './steady-server.ts';

/**
 * A stand-in for a search engine's IndexNow endpoint on 127.0.0.1 (indexnow.org/documentation,
 * yandex.com/indexnow): `POST /indexnow` with JSON `{ host, key, keyLocation?, urlList }`. A
 * body that is not that is refused with 400; a key that is not 8–128 letters, digits or dashes,
 * or an address not on `host`, with 422, as the protocol says. Otherwise 200, unless the test told
 * it to answer otherwise for that host. It never fetches the key file (the tests' hosts are not
 * real): a test makes it answer 403 as a search engine does that found no key there.
 *
 * The tests drive it over HTTP (they may run inside workerd, which cannot start a server); each
 * test uses a host of its own, so files running at once never see each other's lists:
 * - `GET /_stand-in/received?host=…`: every request for that host, in order, with the status it got;
 * - `POST /_stand-in/answers` `{ host, statuses: [403] }`: the next answers for that host, one each
 *   (then 200 again); a 4xx or 5xx comes with `{ success: false, message }` as Yandex answers.
 */
export type IndexNowReceived = {
  host: string;
  key: string;
  keyLocation: string | null;
  urlList: string[];
  contentType: string | null;
  status: number;
};

const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  403: 'Key not valid: the key file was not found at keyLocation',
  422: 'URLs do not belong to the host or the key does not match the schema',
  429: 'Too many requests',
  500: 'Internal server error',
};

export async function startIndexNowStandIn(
  opts: { port?: number; log?: (line: string) => void } = {},
): Promise<{ url: string; received: IndexNowReceived[]; close: () => Promise<void> }> {
  const received: IndexNowReceived[] = [];
  const answers = new Map<string, number[]>();
  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
      const refuse = (status: number) => json(status, { success: false, message: MESSAGES[status] ?? 'Refused' });
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (url.pathname === '/_stand-in/received' && req.method === 'GET') {
        const host = url.searchParams.get('host');
        return json(
          200,
          received.filter((r) => host === null || r.host === host),
        );
      }
      let body: Record<string, unknown>;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return refuse(400);
      }
      if (url.pathname === '/_stand-in/answers' && req.method === 'POST') {
        const { host, statuses } = body as { host?: unknown; statuses?: unknown };
        if (typeof host !== 'string' || !Array.isArray(statuses)) return refuse(400);
        answers.set(host, statuses.map(Number));
        return json(200, { host, statuses });
      }
      if (url.pathname !== '/indexnow' || req.method !== 'POST') return json(404, { message: 'Not found' });
      const { host, key, keyLocation, urlList } = body as Record<string, unknown>;
      if (typeof host !== 'string' || typeof key !== 'string' || !Array.isArray(urlList) || urlList.length === 0)
        return refuse(400);
      const entry: IndexNowReceived = {
        host,
        key,
        keyLocation: typeof keyLocation === 'string' ? keyLocation : null,
        urlList: urlList.map(String),
        contentType: req.headers['content-type'] ?? null,
        status: 200,
      };
      const onHost = (u: string) => {
        try {
          return new URL(u).host === host;
        } catch {
          return false;
        }
      };
      const told = answers.get(host)?.shift();
      if (told !== undefined) entry.status = told;
      else if (!/^[A-Za-z0-9-]{8,128}$/.test(key) || !entry.urlList.every(onHost)) entry.status = 422;
      else if (entry.keyLocation !== null && !(onHost(entry.keyLocation) && entry.keyLocation.endsWith(`/${key}.txt`)))
        entry.status = 422;
      received.push(entry);
      opts.log?.(`${entry.urlList.length} address(es) for ${host}: ${entry.status}`);
      return entry.status === 200 ? res.writeHead(200).end() : refuse(entry.status);
    });
  });
  server.listen(opts.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
