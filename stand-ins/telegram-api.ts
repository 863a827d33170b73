import { once } from 'node:events';
import { steadyServer } from './steady-server.ts';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Telegram's Bot API on 127.0.0.1 (TELEGRAM_API_URL of the app under test): keeps
 * every `POST /bot<token>/sendMessage`, failing the first `failFirst` calls with 502 as the real
 * one does when it is overloaded. Tests in another process read what it got over HTTP:
 * `GET /_stand-in/messages`.
 */
export type TelegramMessage = { path: string; body: { chat_id: string; text: string } };

export async function startTelegramStandIn(opts: { failFirst?: number } = {}) {
  const messages: TelegramMessage[] = [];
  let calls = 0;
  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/_stand-in/messages') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages));
        return;
      }
      calls += 1;
      if (calls <= (opts.failFirst ?? 0)) {
        res.writeHead(502, { 'content-type': 'application/json' }).end('{"ok":false}');
        return;
      }
      messages.push({ path: req.url ?? '', body: JSON.parse(raw || '{}') as TelegramMessage['body'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{}}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
