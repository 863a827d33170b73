import { once } from 'node:events';
import { steadyServer } from './steady-server.ts';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for MAX's Bot API on 127.0.0.1, in the shape of dev.max.ru/docs-api: GET /me,
 * GET /updates (long polling with `marker`, `types`, `timeout`), POST /messages?user_id=.
 * A token is any `Authorization` header; one starting with `bad` is refused with 401, as MAX
 * refuses a revoked token, and so is a token in the URL (MAX no longer takes it there).
 *
 * Webhooks: POST /subscriptions `{ url, update_types, secret }` keeps the bot's subscription (400
 * for a URL that is not https, or whose host starts with `self-signed`: a certificate MAX refuses)
 * (GET /subscriptions lists it, DELETE /subscriptions?url= removes it); while there is one,
 * GET /updates gives nothing, as MAX's long polling stops.
 *
 * The tests drive it over HTTP (they may run inside workerd, which cannot start a server):
 * - `POST /_stand-in/start` `{ token, payload, userId, chatId }`: someone opened that bot by
 *   its start link and pressed «Начать» (MAX then queues a `bot_started` update);
 * - `POST /_stand-in/message` `{ token, userId, text, mid? }`: a user wrote to the bot (a
 *   `message_created` update);
 *   both answer `{ update }`, the update as MAX would post it to a webhook: the app under test may
 *   run in workerd, where the stand-in cannot reach it, so a test posts it itself;
 * - `POST /_stand-in/block` `{ userId }`: that user blocked the bot (POST /messages to them is 403);
 * - `POST /_stand-in/fail` `{ userId, after }`: of the next POST /messages to that user, the one
 *   after `after` that go through answers 503 once (a long text's part lost on the way);
 * - `GET /_stand-in/subscription?token=`: the bot's webhook subscription, or null;
 * - `GET /_stand-in/requests`: every request it received to MAX's own paths, with the
 *   Authorization header and the JSON body.
 */

export const STAND_IN_BOT = {
  user_id: 5_550_001,
  name: 'Каспий — уведомления',
  username: 'kaspiy_alerts_bot',
  is_bot: true,
};

/** A request as received; a message's `body` carries its `text`. */
export type RecordedRequest = {
  method: string;
  path: string;
  authorization: string | null;
  body: ({ text?: string } & Record<string, unknown>) | null;
  /** The status the stand-in answered (a message refused with 503 never reached the user). */
  status?: number;
};
type Update = { seq: number; update: Record<string, unknown> };
/** A webhook subscription as POST /subscriptions was given it. */
export type MaxSubscription = { url: string; update_types?: string[]; secret?: string; time: number };

/** GET /_stand-in/requests of the stand-in at `url`: every request it received, in order. */
export async function readRequests(url: string): Promise<RecordedRequest[]> {
  return (await fetch(`${url}/_stand-in/requests`)).json();
}

/**
 * `failMessages`: the first so many POST /messages answer 503, as MAX does when it is overloaded.
 * `onHandOver`: told of each GET /updates answered with updates (for a test to time a fault by).
 */
export async function startMaxStandIn(
  opts: { failMessages?: number; onHandOver?: (updates: Record<string, unknown>[]) => void } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  let messageCalls = 0;
  /** Per token: its updates in order, and the sequence number of the first one not yet acknowledged. */
  const bots = new Map<
    string,
    { updates: Update[]; acked: number; seq: number; subscription: MaxSubscription | null }
  >();
  const botOf = (token: string) => {
    let b = bots.get(token);
    if (!b) bots.set(token, (b = { updates: [], acked: 0, seq: 0, subscription: null }));
    return b;
  };
  let mids = 0;
  const blocked = new Set<string>();
  /** Per user: how many more messages go through before one fails (POST /_stand-in/fail). */
  const failAfter = new Map<string, number>();
  const queue = (token: string, update: Record<string, unknown>) => {
    const bot = botOf(token);
    bot.updates.push({ seq: ++bot.seq, update });
    return update;
  };

  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => void answer(raw).catch(() => res.writeHead(500).end()));

    let recorded: RecordedRequest | undefined;
    const json = (status: number, body: unknown) => {
      if (recorded) recorded.status = status;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };

    async function answer(raw: string) {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      if (url.pathname === '/_stand-in/requests') return json(200, requests);
      if (url.pathname === '/_stand-in/start' && req.method === 'POST') {
        const { token, payload, userId, chatId } = body as {
          token: string;
          payload: string;
          userId: number;
          chatId: number;
        };
        const update = queue(token, {
          update_type: 'bot_started',
          timestamp: Date.now(),
          chat_id: chatId,
          user: { user_id: userId, name: 'Хозяйка', is_bot: false },
          ...(payload ? { payload } : {}),
          user_locale: 'ru',
        });
        return json(200, { ok: true, update });
      }
      if (url.pathname === '/_stand-in/message' && req.method === 'POST') {
        const { token, userId, text, mid } = body as { token: string; userId: number; text: string; mid?: string };
        const update = queue(token, {
          update_type: 'message_created',
          timestamp: Date.now(),
          message: {
            sender: { user_id: userId, first_name: 'Гость', is_bot: false },
            recipient: { chat_id: -userId, chat_type: 'dialog', user_id: STAND_IN_BOT.user_id },
            timestamp: Date.now(),
            body: { mid: mid ?? `mid.${Date.now().toString(16)}${(++mids).toString(16)}`, seq: mids, text },
          },
          user_locale: 'ru',
        });
        return json(200, { ok: true, update });
      }
      if (url.pathname === '/_stand-in/fail' && req.method === 'POST') {
        const { userId, after } = body as { userId: number; after: number };
        failAfter.set(String(userId), after);
        return json(200, { ok: true });
      }
      if (url.pathname === '/_stand-in/block' && req.method === 'POST') {
        blocked.add(String((body as { userId: number }).userId));
        return json(200, { ok: true });
      }
      if (url.pathname === '/_stand-in/subscription')
        return json(200, bots.get(url.searchParams.get('token') ?? '')?.subscription ?? null);

      const authorization = req.headers.authorization ?? null;
      recorded = {
        method: req.method ?? '',
        path: `${url.pathname}${url.search}`,
        authorization,
        body: body as RecordedRequest['body'],
      };
      requests.push(recorded);
      if (!authorization || authorization.startsWith('bad') || url.searchParams.has('access_token')) {
        return json(401, { code: 'verify.token', message: 'Invalid access_token' });
      }
      const bot = botOf(authorization);

      if (req.method === 'GET' && url.pathname === '/me') return json(200, STAND_IN_BOT);
      if (url.pathname === '/subscriptions') {
        if (req.method === 'GET') return json(200, { subscriptions: bot.subscription ? [bot.subscription] : [] });
        if (req.method === 'POST') {
          const { url: hook, update_types, secret } = (body ?? {}) as Partial<MaxSubscription>;
          // A host named `self-signed…` stands for a certificate MAX does not trust.
          if (!hook?.startsWith('https://') || new URL(hook).hostname.startsWith('self-signed'))
            return json(400, {
              code: 'proto.payload',
              message: 'Webhook URL must be https with a trusted certificate',
            });
          bot.subscription = { url: hook, update_types, secret, time: Date.now() };
          return json(200, { success: true });
        }
        if (req.method === 'DELETE') {
          if (bot.subscription?.url === url.searchParams.get('url')) bot.subscription = null;
          return json(200, { success: true });
        }
      }
      if (req.method === 'GET' && url.pathname === '/updates' && bot.subscription)
        return json(200, { updates: [], marker: null });
      if (req.method === 'GET' && url.pathname === '/updates') {
        const marker = url.searchParams.get('marker');
        if (marker !== null) bot.acked = Math.max(bot.acked, Number(marker));
        const types = url.searchParams.get('types')?.split(',');
        const pending = () =>
          bot.updates.filter((u) => u.seq >= bot.acked && (!types || types.includes(String(u.update.update_type))));
        const deadline = Date.now() + Number(url.searchParams.get('timeout') ?? 30) * 1000;
        while (pending().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const page = pending().slice(0, Number(url.searchParams.get('limit') ?? 100));
        if (page.length > 0) opts.onHandOver?.(page.map((u) => u.update));
        return json(200, { updates: page.map((u) => u.update), marker: (page.at(-1)?.seq ?? bot.seq) + 1 });
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        if (++messageCalls <= (opts.failMessages ?? 0))
          return json(503, { code: 'service.unavailable', message: 'Try again later' });
        if (!url.searchParams.get('user_id') && !url.searchParams.get('chat_id'))
          return json(400, { code: 'proto.payload', message: 'user_id or chat_id required' });
        if (blocked.has(url.searchParams.get('user_id') ?? ''))
          return json(403, { code: 'chat.denied', message: 'The user has blocked the bot' });
        const left = failAfter.get(url.searchParams.get('user_id') ?? '');
        if (left !== undefined) {
          if (left === 0) {
            failAfter.delete(url.searchParams.get('user_id') ?? '');
            return json(503, { code: 'service.unavailable', message: 'Try again later' });
          }
          failAfter.set(url.searchParams.get('user_id') ?? '', left - 1);
        }
        return json(200, {
          message: {
            recipient: { user_id: Number(url.searchParams.get('user_id')) },
            body: { mid: `mid.${requests.length}`, text: (body as { text?: string } | null)?.text },
          },
        });
      }
      return json(404, { code: 'not.found', message: 'Path not found' });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
