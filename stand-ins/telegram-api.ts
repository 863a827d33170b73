import { once } from 'node:events';
import { steadyServer } from './steady-server.ts';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Telegram's Bot API on 127.0.0.1 (TELEGRAM_API_URL of the app under test), for the
 * owner's alerts and the guests' bot alike. Every method is `POST /bot<token>/<method>`:
 *
 * - `getMe`: any token shaped like Telegram's (`<digits>:<secret>`) is a bot named «Каспий —
 *   гостям», `@kaspiy_guests_bot`, whose id is the digits; a secret containing `rejected` is
 *   refused with 401, as Telegram refuses a revoked token.
 * - `setWebhook` / `deleteWebhook`: kept per token (the url and the secret_token).
 * - `getUpdates`: the updates queued for the token from `offset` on (earlier ones are dropped, as
 *   Telegram confirms them), waiting up to `timeout` seconds for one when there is none; 409 while
 *   a webhook is set, and to a waiting call that a newer one for the same token replaces, as
 *   Telegram answers.
 * - `sendMessage`: kept in the log, failing the first `failFirst` with 502 as the real one does
 *   when it is overloaded.
 *
 * Tests in another process drive it over HTTP: `GET /_stand-in/messages` (every sendMessage),
 * `GET /_stand-in/webhook?token=…` (what setWebhook was given, or null), `POST /_stand-in/updates`
 * `{ token, update, deliver? }`: posts the update to the webhook with its secret header when one is
 * set and `deliver` is not false (answering the webhook's status), else queues it for getUpdates.
 * `deliver: 'until-ok'` posts it as Telegram does: in order after the token's earlier ones, again
 * every `redeliverMs` until the webhook answers 200 (`hookAddress` turns the url setWebhook was
 * given into the one to post to, e.g. the server's loopback port behind its https address).
 */
export type TelegramMessage = { path: string; body: { chat_id: string | number; text: string } };
export type TelegramWebhook = { url: string; secret_token: string };

/** GET /_stand-in/messages of the stand-in at `url`: every sendMessage it was given, in order. */
export async function readMessages(url: string): Promise<TelegramMessage[]> {
  return (await fetch(`${url}/_stand-in/messages`)).json();
}

export const STAND_IN_BOT = { first_name: 'Каспий — гостям', username: 'kaspiy_guests_bot' } as const;

type Update = { update_id: number } & Record<string, unknown>;

export async function startTelegramStandIn(
  opts: {
    failFirst?: number;
    log?: (line: string) => void;
    hookAddress?: (url: string) => string;
    redeliverMs?: number;
    /** Told of each getUpdates answered with updates and each webhook post tried (for a test to time a fault by). */
    onHandOver?: (how: 'getUpdates' | 'webhook', updates: Update[]) => void;
  } = {},
) {
  const messages: TelegramMessage[] = [];
  const webhooks = new Map<string, TelegramWebhook>();
  const queues = new Map<string, Update[]>();
  /** Per token: the getUpdates call waiting for an update (a newer call ends it with 409). */
  const waiting = new Map<string, { wake: (answer: 'updates' | 'replaced') => void }>();
  /** Per token: updates for the webhook not yet answered with 200, in order. */
  const unconfirmed = new Map<string, Update[]>();
  const delivering = new Set<string>();
  let sends = 0;

  async function redeliver(token: string) {
    if (delivering.has(token)) return;
    delivering.add(token);
    try {
      for (let next = unconfirmed.get(token)?.[0]; next; next = unconfirmed.get(token)?.[0]) {
        const hook = webhooks.get(token);
        if (!hook) break;
        opts.onHandOver?.('webhook', [next]);
        const status = await fetch(opts.hookAddress?.(hook.url) ?? hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secret_token },
          body: JSON.stringify(next),
        }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 0,
        );
        if (status === 200) unconfirmed.get(token)!.shift();
        else await new Promise((r) => setTimeout(r, opts.redeliverMs ?? 100));
      }
    } finally {
      delivering.delete(token);
    }
  }
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const ok = (res: import('node:http').ServerResponse, result: unknown) => json(res, 200, { ok: true, result });
  const refuse = (res: import('node:http').ServerResponse, status: number, description: string) =>
    json(res, status, { ok: false, error_code: status, description });

  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        let body: Record<string, unknown> = {};
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          return refuse(res, 400, 'Bad Request: can not parse JSON');
        }
        if (url.pathname === '/_stand-in/messages') return json(res, 200, messages);
        if (url.pathname === '/_stand-in/webhook')
          return json(res, 200, webhooks.get(url.searchParams.get('token') ?? '') ?? null);
        if (url.pathname === '/_stand-in/updates' && req.method === 'POST') {
          const token = String(body.token ?? '');
          const update = body.update as Update;
          const hook = webhooks.get(token);
          if (hook && body.deliver === 'until-ok') {
            unconfirmed.set(token, [...(unconfirmed.get(token) ?? []), update]);
            void redeliver(token);
            return json(res, 200, { queued: true });
          }
          if (hook && body.deliver !== false) {
            const answer = await fetch(hook.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secret_token },
              body: JSON.stringify(update),
            }).catch(() => null);
            return json(res, 200, { delivered: answer?.status ?? 0 });
          }
          queues.set(token, [...(queues.get(token) ?? []), update]);
          waiting.get(token)?.wake('updates');
          return json(res, 200, { queued: true });
        }
        const call = /^\/bot(\d+):([^/]+)\/(\w+)$/.exec(url.pathname);
        if (!call) return refuse(res, 404, 'Not Found');
        const [, id, secret, method] = call;
        const token = `${id}:${secret}`;
        if (secret!.includes('rejected')) return refuse(res, 401, 'Unauthorized');
        switch (method) {
          case 'getMe':
            return ok(res, { id: Number(id), is_bot: true, ...STAND_IN_BOT });
          case 'setWebhook':
            webhooks.set(token, { url: String(body.url), secret_token: String(body.secret_token ?? '') });
            opts.log?.(`webhook → ${String(body.url).replace(/\/[^/]+$/, '/…')}`);
            return ok(res, true);
          case 'deleteWebhook':
            webhooks.delete(token);
            return ok(res, true);
          case 'getUpdates': {
            if (webhooks.has(token))
              return refuse(res, 409, "Conflict: can't use getUpdates method while webhook is active");
            const offset = typeof body.offset === 'number' ? body.offset : undefined;
            const left = (queues.get(token) ?? []).filter((u) => offset === undefined || u.update_id >= offset);
            queues.set(token, left);
            waiting.get(token)?.wake('replaced');
            const waitS = typeof body.timeout === 'number' ? body.timeout : 0;
            if (left.length === 0 && waitS > 0) {
              const woken = await new Promise<'updates' | 'replaced' | 'timeout'>((resolve) => {
                const timer = setTimeout(() => wake('timeout'), waitS * 1000);
                const wake = (answer: 'updates' | 'replaced' | 'timeout') => {
                  clearTimeout(timer);
                  if (waiting.get(token)?.wake === wake) waiting.delete(token);
                  resolve(answer);
                };
                waiting.set(token, { wake });
                res.once('close', () => wake('timeout'));
              });
              if (woken === 'replaced')
                return refuse(
                  res,
                  409,
                  'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
                );
            }
            const given = queues.get(token) ?? [];
            if (given.length > 0) opts.onHandOver?.('getUpdates', given);
            return ok(res, given);
          }
          case 'sendMessage': {
            sends += 1;
            if (sends <= (opts.failFirst ?? 0)) return refuse(res, 502, 'Bad Gateway');
            const message = { path: url.pathname, body: body as TelegramMessage['body'] };
            messages.push(message);
            opts.log?.(`→ ${message.body.chat_id}: ${String(message.body.text).split('\n')[0]}`);
            return ok(res, { message_id: messages.length, chat: { id: message.body.chat_id } });
          }
          default:
            return refuse(res, 404, 'Not Found: method not found');
        }
      })();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    calls: () => sends,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
