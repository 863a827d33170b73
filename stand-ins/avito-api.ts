// A stand-in for Avito's API for short-term rent on this machine: tests and local runs
// use it where the real Avito cannot be reached. It keeps accounts, tokens, listings, pushed
// calendars and prices and Avito's own bookings in memory, and checks what a client sends as
// Avito does: a form-encoded client-credentials token request, a live Bearer token of the account
// on every item call, the account's own user id and listing, and the JSON body's shape.
//
// The API: POST /token; POST /core/v1/accounts/:userId/items/:itemId/bookings (busy nights);
// POST /realty/v1/accounts/:userId/items/:itemId/prices; GET /realty/v1/accounts/:userId/items/
// :itemId/bookings?date_start&date_end[&with_unpaid=true]. Messenger: GET /messenger/v2/accounts/
// :userId/chats[/:chatId]; GET /messenger/v3/accounts/:userId/chats/:chatId/messages/; POST
// /messenger/v1/accounts/:userId/chats/:chatId/messages ({ message: { text }, type: 'text' });
// POST /messenger/v1/accounts/:userId/chats/:chatId/read; POST /messenger/v3/webhook ({ url }).
//
// Tests in Node call the returned object's methods; tests inside workerd cannot, so the same
// controls answer over HTTP under /_control (JSON in and out):
//   POST   /_control/clients                         { clientId, clientSecret, userId, items, expiresIn? }
//   POST   /_control/clients/:clientId/revoke
//   POST   /_control/expires-in                      { seconds, clientId? }
//   POST   /_control/items/:itemId/bookings          a booking (AvitoBookingInput) → the booking
//   GET    /_control/items/:itemId/bookings          → every booking of the listing, canceled too
//   DELETE /_control/items/:itemId/bookings/:id      → the booking, now canceled
//   GET    /_control/items/:itemId/pushed            → { busy, prices } (see Pushed)
//   GET    /_control/log[?clientId=]                 → { tokensIssued, requests }
//   POST   /_control/fail                            { mode, delayMs?, times?, clientId? }
//   POST   /_control/reset                           { clientId? }
//   POST   /_control/chats                           { userId, itemId, guestName, guestId?, chatId? } → the chat
//   POST   /_control/chats/:chatId/messages          { text, type?, system? } a guest's (or Avito's) message
//                                                    → { message, hook } (hook: the body Avito's webhook posts)
//   GET    /_control/chats/:chatId                   → { chat, messages, sent, reads }
//   POST   /_control/messenger                       { userId, refuse, message? } refuse the Messenger API (403)
//   GET    /_control/webhooks?userId=                → the addresses the account subscribed
// One stand-in may serve several test files at once: give each its own client and listings, and
// scope failures and resets by clientId, so one file's outage is not another's.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { steadyServer } from './steady-server.ts';
import { z } from 'zod';

export type AvitoClientInput = {
  clientId: string;
  clientSecret: string;
  userId: number;
  items: number[];
  expiresIn?: number;
};
export type FailMode = 'none' | 'down' | 'rate' | 'garbage' | 'slow';
/** `times`: only the next so many API requests, then it recovers; `clientId`: only that account's requests. */
export type FailOptions = { delayMs?: number; times?: number; clientId?: string };

export type StandInBooking = {
  avito_booking_id: number;
  status: string;
  check_in: string;
  check_out: string;
  guest_count: number;
  nights: number;
  base_price: number;
  contact?: { name?: string; email?: string; phone?: string };
  /** Anything else is answered as given (Avito adds fields). */
  [extra: string]: unknown;
};
/** What a test adds: dates at least; the rest has defaults (active, 2 guests, 5000 ₽, a new id). */
export type AvitoBookingInput = Partial<StandInBooking> & { check_in: string; check_out: string };

export type BusyEntry = { date_start: string; date_end: string; type: string; comment?: string };
export type PriceEntry = {
  date_from: string;
  date_to: string;
  night_price: number;
  minimal_duration: number;
  extra_guest_fee?: number;
};
/** What was pushed for a listing: the last list, how many pushes, and each push with its time. */
export type Pushed<T> = { last: T[] | null; count: number; history: { at: string; list: T[]; source?: string }[] };
export type LoggedRequest = {
  at: string;
  method: string;
  path: string;
  query: string;
  status: number;
  clientId?: string;
};

export type AvitoStandIn = {
  /** The API's base, as AVITO_API_URL: http://127.0.0.1:PORT */
  apiUrl: string;
  base: string;
  /** http://127.0.0.1:PORT/_control */
  controlUrl: string;
  /** Adds an account (or replaces one of the same clientId, its tokens kept); its listings are `items`. */
  addClient(c: AvitoClientInput): void;
  /** The account's tokens answer 401 from now on, and a new token is refused (401 invalid_client). */
  revoke(clientId: string): void;
  /** The `expires_in` of tokens issued from now on (seconds): the account's, or everyone's default. */
  setExpiresIn(seconds: number, clientId?: string): void;
  addBooking(itemId: number, booking: AvitoBookingInput): StandInBooking;
  cancelBooking(itemId: number, avitoBookingId: number): StandInBooking | undefined;
  bookings(itemId: number): StandInBooking[];
  pushedBusy(itemId: number): Pushed<BusyEntry>;
  pushedPrices(itemId: number): Pushed<PriceEntry>;
  /** Every API request (not the controls), in the order they came. */
  requests: LoggedRequest[];
  readonly tokensIssued: number;
  tokensIssuedTo(clientId: string): number;
  fail(mode: FailMode, opts?: FailOptions): void;
  /** Forget everything, or only this account: its tokens, listings' bookings and pushes, failures and log. */
  reset(clientId?: string): void;
  /** A guest's chat about the account's listing (no message yet). */
  addChat(c: ChatInput): StandInChat;
  /** A guest's message in the chat (`system`: one of Avito's own); with the body Avito's webhook would post. */
  writeInChat(
    chatId: string,
    text: string,
    o?: { type?: string; system?: boolean },
  ): { message: StandInMessage; hook: unknown };
  chat(chatId: string): StandInChat | undefined;
  /** The account's Messenger API answers 403 with Avito's words (`message`, MESSENGER_REFUSAL by default). */
  refuseMessenger(userId: number, refuse: boolean, message?: string): void;
  close(): Promise<void>;
};

/** GET /_control/items/:itemId/pushed, for a test that cannot call the stand-in: what was pushed for the listing. */
export async function readPushed(
  controlUrl: string,
  itemId: number,
): Promise<{ busy: Pushed<BusyEntry>; prices: Pushed<PriceEntry> }> {
  return (await fetch(`${controlUrl}/items/${itemId}/pushed`)).json();
}

/** POST /_control/items/:itemId/bookings: a guest's booking on Avito, as the stand-in keeps it. */
export async function addBookingAt(
  controlUrl: string,
  itemId: number,
  booking: AvitoBookingInput,
): Promise<StandInBooking> {
  const res = await fetch(`${controlUrl}/items/${itemId}/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(booking),
  });
  return res.json();
}

/** GET /_control/log?clientId=…: the tokens issued to the account and its API requests. */
export async function readLog(
  controlUrl: string,
  clientId: string,
): Promise<{ tokensIssued: number; requests: LoggedRequest[] }> {
  return (await fetch(`${controlUrl}/log?clientId=${encodeURIComponent(clientId)}`)).json();
}

/** A message of a chat as Avito's Messenger API answers it (`created` in seconds). */
export type StandInMessage = {
  id: string;
  author_id: number;
  created: number;
  direction: 'in' | 'out';
  type: string;
  content: { text?: string };
  is_read: boolean;
};
export type StandInChat = {
  id: string;
  userId: number;
  itemId: number;
  guest: { id: number; name: string };
  created: number;
  updated: number;
  messages: StandInMessage[];
  /** What the site sent to the chat (its bodies), and how often it marked the chat read. */
  sent: { text: string; at: string }[];
  reads: number;
};
export type ChatInput = { userId: number; itemId: number; guestName: string; guestId?: number; chatId?: string };

/** The Messenger API's refusal for an account that has none in its plan, as Avito words it. */
export const MESSENGER_REFUSAL = 'Доступ к API мессенджера не предусмотрен вашим тарифом';

/** POST /_control/chats: a chat of a guest about the account's listing, as the stand-in keeps it. */
export async function addChatAt(controlUrl: string, chat: ChatInput): Promise<StandInChat> {
  const res = await fetch(`${controlUrl}/chats`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chat),
  });
  return res.json();
}

export type AvitoStandInOptions = { port?: number; host?: string; log?: (line: string) => void; expiresIn?: number };

type Client = {
  clientId: string;
  clientSecret: string;
  userId: number;
  items: Set<number>;
  revoked: boolean;
  expiresIn?: number;
};
type Token = { clientId: string; userId: number; expiresAt: number };
type FailRule = { mode: Exclude<FailMode, 'none'>; delayMs: number; remaining: number | null; clientId?: string };

// ——— What a client must send

const isoDate = z.string().refine((s) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, 'must be a YYYY-MM-DD date');

const busyBody = z.strictObject({
  bookings: z.array(
    z
      .strictObject({
        date_start: isoDate,
        date_end: isoDate,
        type: z.literal('manual'),
        comment: z.string().max(1000).optional(),
      })
      .refine((b) => b.date_end > b.date_start, 'date_end must be after date_start'),
  ),
  source: z.string().min(1),
});

const pricesBody = z.strictObject({
  prices: z.array(
    z
      .strictObject({
        date_from: isoDate,
        date_to: isoDate,
        night_price: z.number().int().positive(),
        minimal_duration: z.number().int().min(1),
        extra_guest_fee: z.number().int().min(0).optional(),
      })
      .refine((p) => p.date_to >= p.date_from, 'date_to must not be before date_from'),
  ),
});

const clientBody = z.object({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  userId: z.number().int().positive(),
  items: z.array(z.number().int().positive()),
  expiresIn: z.number().positive().optional(),
});
const failBody = z.object({
  mode: z.enum(['none', 'down', 'rate', 'garbage', 'slow']),
  delayMs: z.number().min(0).optional(),
  times: z.number().int().positive().optional(),
  clientId: z.string().optional(),
});
const bookingInput = z.looseObject({ check_in: isoDate, check_out: isoDate });
const chatInput = z.object({
  userId: z.number().int().positive(),
  itemId: z.number().int().positive(),
  guestName: z.string().min(1),
  guestId: z.number().int().positive().optional(),
  chatId: z
    .string()
    .regex(/^[\w:~.-]{1,200}$/)
    .optional(),
});

const issueText = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
const nightsBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

class Answered extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`stand-in answered ${status}`);
    this.status = status;
    this.body = body;
  }
}
/** Avito's error shape on the item calls. */
const itemError = (status: number, message: string) => new Answered(status, { error: { code: status, message } });

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startAvitoStandIn(opts: AvitoStandInOptions = {}): Promise<AvitoStandIn> {
  const log = opts.log ?? (() => {});
  const clients = new Map<string, Client>();
  const tokens = new Map<string, Token>();
  const itemBookings = new Map<number, StandInBooking[]>();
  const busyPushes = new Map<number, Pushed<BusyEntry>>();
  const pricePushes = new Map<number, Pushed<PriceEntry>>();
  const requests: LoggedRequest[] = [];
  const issued = new Map<string, number>();
  let tokensIssued = 0;
  let defaultExpiresIn = opts.expiresIn ?? 3600;
  let rules: FailRule[] = [];
  let nextBookingId = 9_000_000_001;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const chats = new Map<string, StandInChat>();
  const refusals = new Map<number, string>();
  const webhooks = new Map<number, string[]>();
  let nextMessage = 1;
  let nextGuest = 700_000_001;

  const ownerOf = (itemId: number) => [...clients.values()].find((c) => c.items.has(itemId));
  const clientOfUser = (userId: number) => [...clients.values()].find((c) => c.userId === userId);
  const pushedOf = <T>(map: Map<number, Pushed<T>>, itemId: number): Pushed<T> => {
    let p = map.get(itemId);
    if (!p) map.set(itemId, (p = { last: null, count: 0, history: [] }));
    return p;
  };

  function addClient(c: AvitoClientInput) {
    const ok = clientBody.parse(c);
    const before = clients.get(ok.clientId);
    clients.set(ok.clientId, {
      clientId: ok.clientId,
      clientSecret: ok.clientSecret,
      userId: ok.userId,
      items: new Set(ok.items),
      revoked: false,
      expiresIn: ok.expiresIn ?? before?.expiresIn,
    });
    log(`client ${ok.clientId}: user ${ok.userId}, items ${ok.items.join(', ') || 'none'}`);
  }

  function revoke(clientId: string) {
    const c = clients.get(clientId);
    if (!c) throw new Error(`no client ${clientId}`);
    c.revoked = true;
    log(`client ${clientId}: key revoked`);
  }

  function setExpiresIn(seconds: number, clientId?: string) {
    if (!(seconds > 0)) throw new Error('expires_in must be positive');
    if (clientId === undefined) defaultExpiresIn = seconds;
    else {
      const c = clients.get(clientId);
      if (!c) throw new Error(`no client ${clientId}`);
      c.expiresIn = seconds;
    }
  }

  function addBooking(itemId: number, input: AvitoBookingInput): StandInBooking {
    const b = bookingInput.parse(input) as AvitoBookingInput;
    const booking: StandInBooking = {
      ...b,
      avito_booking_id: b.avito_booking_id ?? nextBookingId++,
      status: b.status ?? 'active',
      guest_count: b.guest_count ?? 2,
      nights: b.nights ?? nightsBetween(b.check_in, b.check_out),
      base_price: b.base_price ?? 5000,
    };
    const list = itemBookings.get(itemId) ?? [];
    const at = list.findIndex((x) => x.avito_booking_id === booking.avito_booking_id);
    if (at >= 0) list[at] = booking;
    else list.push(booking);
    itemBookings.set(itemId, list);
    return booking;
  }

  function cancelBooking(itemId: number, id: number) {
    const b = itemBookings.get(itemId)?.find((x) => x.avito_booking_id === id);
    if (b) b.status = 'canceled';
    return b;
  }

  function fail(mode: FailMode, o: FailOptions = {}) {
    // A rule for one account replaces that account's; one for everyone replaces them all. 'none' only clears.
    rules = rules.filter((r) => (o.clientId === undefined ? false : r.clientId !== o.clientId));
    if (mode !== 'none')
      rules.push({ mode, delayMs: o.delayMs ?? 3000, remaining: o.times ?? null, clientId: o.clientId });
  }

  function reset(clientId?: string) {
    if (clientId === undefined) {
      for (const m of [clients, tokens, itemBookings, busyPushes, pricePushes, issued] as Map<unknown, unknown>[])
        m.clear();
      requests.length = 0;
      chats.clear();
      refusals.clear();
      webhooks.clear();
      tokensIssued = 0;
      defaultExpiresIn = opts.expiresIn ?? 3600;
      rules = [];
      return;
    }
    const c = clients.get(clientId);
    for (const [t, tok] of tokens) if (tok.clientId === clientId) tokens.delete(t);
    for (const item of c?.items ?? []) {
      itemBookings.delete(item);
      busyPushes.delete(item);
      pricePushes.delete(item);
    }
    if (c) {
      for (const [id, chat] of chats) if (chat.userId === c.userId) chats.delete(id);
      refusals.delete(c.userId);
      webhooks.delete(c.userId);
    }
    clients.delete(clientId);
    rules = rules.filter((r) => r.clientId !== clientId);
    for (let i = requests.length - 1; i >= 0; i--) if (requests[i]!.clientId === clientId) requests.splice(i, 1);
    tokensIssued -= issued.get(clientId) ?? 0;
    issued.delete(clientId);
  }

  function addChat(input: ChatInput): StandInChat {
    const o = chatInput.parse(input);
    const at = Math.floor(Date.now() / 1000);
    const chat: StandInChat = {
      id: o.chatId ?? `u2i-${randomBytes(9).toString('base64url')}`,
      userId: o.userId,
      itemId: o.itemId,
      guest: { id: o.guestId ?? nextGuest++, name: o.guestName },
      created: at,
      updated: at,
      messages: [],
      sent: [],
      reads: 0,
    };
    chats.set(chat.id, chat);
    log(`chat ${chat.id}: ${o.guestName} about item ${o.itemId}`);
    return chat;
  }

  function writeInChat(chatId: string, text: string, o: { type?: string; system?: boolean } = {}) {
    const chat = chats.get(chatId);
    if (!chat) throw new Answered(404, { error: 'no such chat' });
    const created = Math.max(Math.floor(Date.now() / 1000), chat.updated);
    const message: StandInMessage = {
      id: `${randomBytes(8).toString('hex')}${nextMessage++}`,
      // Avito's own messages in a chat come from its system user, 0.
      author_id: o.system ? 0 : chat.guest.id,
      created,
      direction: 'in',
      type: o.system ? 'system' : (o.type ?? 'text'),
      content: { text },
      is_read: false,
    };
    chat.messages.push(message);
    chat.updated = created;
    const hook = {
      id: randomBytes(16).toString('hex'),
      version: 'v3.0.0',
      timestamp: created,
      payload: {
        type: 'message',
        value: {
          id: message.id,
          chat_id: chat.id,
          user_id: chat.userId,
          author_id: message.author_id,
          created,
          type: message.type,
          chat_type: 'u2i',
          content: message.content,
          item_id: chat.itemId,
          published_at: new Date(created * 1000).toISOString(),
        },
      },
    };
    return { message, hook };
  }

  function refuseMessenger(userId: number, refuse: boolean, message = MESSENGER_REFUSAL) {
    if (refuse) refusals.set(userId, message);
    else refusals.delete(userId);
  }

  const chatView = (chat: StandInChat) => ({
    id: chat.id,
    created: chat.created,
    updated: chat.updated,
    context: {
      type: 'item',
      value: {
        id: chat.itemId,
        title: 'Домик у моря',
        url: `https://www.avito.ru/kaspiysk/doma_dachi_kottedzhi/domik_${chat.itemId}`,
        user_id: chat.userId,
        status_id: 0,
        price_string: '5 000 ₽ за сутки',
        images: {},
      },
    },
    users: [
      { id: chat.userId, name: 'Домики на Каспии' },
      { id: chat.guest.id, name: chat.guest.name },
    ],
    ...(chat.messages.length
      ? {
          last_message: (({ is_read: _, ...m }) => m)(chat.messages[chat.messages.length - 1]!),
        }
      : {}),
  });

  async function messenger(req: IncomingMessage, res: ServerResponse, url: URL, path: string, entry: LoggedRequest) {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const tok = bearer ? tokens.get(bearer) : undefined;
    entry.clientId = tok?.clientId;
    const text = await readText(req);
    if (await failed(failureFor(entry.clientId), res)) return;
    if (!tok) throw itemError(401, bearer ? 'invalid access token' : 'authorization required: Bearer token');
    const c = clients.get(tok.clientId);
    if (!c || c.revoked) throw itemError(401, 'access token revoked');
    if (tok.expiresAt <= Date.now()) throw itemError(401, 'access token expired');
    const refusal = refusals.get(tok.userId);
    if (refusal !== undefined) throw itemError(403, refusal);
    let body: Record<string, unknown> = {};
    if (req.method === 'POST' && text) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw itemError(400, 'the body is not JSON');
      }
    }
    if (path === '/messenger/v3/webhook' && req.method === 'POST') {
      const hook = z.object({ url: z.string().url() }).safeParse(body);
      if (!hook.success) throw itemError(400, issueText(hook.error));
      const list = webhooks.get(tok.userId) ?? [];
      if (!list.includes(hook.data.url)) list.push(hook.data.url);
      webhooks.set(tok.userId, list);
      return json(res, 200, { ok: true });
    }
    const m = path.match(/^\/messenger\/v(\d)\/accounts\/(\d+)\/chats(?:\/([^/]+)(\/messages\/?|\/read)?)?$/);
    if (!m) throw itemError(404, 'not found');
    const [, version, userPart, chatId, tail] = m;
    if (Number(userPart) !== tok.userId) throw itemError(403, 'access denied: the token belongs to another account');
    const route = `${req.method} v${version} ${chatId === undefined ? 'chats' : (tail?.replace(/\//g, '') ?? 'chat')}`;
    if (route === 'GET v2 chats') {
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 100) || 100);
      const list = [...chats.values()]
        .filter((ch) => ch.userId === tok.userId)
        .sort((a, b) => b.updated - a.updated)
        .slice(0, limit);
      return json(res, 200, { chats: list.map(chatView) });
    }
    const chat = chatId === undefined ? undefined : chats.get(decodeURIComponent(chatId));
    if (!chat || chat.userId !== tok.userId) throw itemError(404, 'chat not found');
    if (route === 'GET v2 chat') return json(res, 200, chatView(chat));
    if (route === 'GET v3 messages') return json(res, 200, { messages: [...chat.messages].reverse() });
    if (route === 'POST v1 messages') {
      const send = z
        .strictObject({ message: z.strictObject({ text: z.string().min(1) }), type: z.literal('text') })
        .safeParse(body);
      if (!send.success) throw itemError(400, issueText(send.error));
      const created = Math.max(Math.floor(Date.now() / 1000), chat.updated);
      const message: StandInMessage = {
        id: `${randomBytes(8).toString('hex')}${nextMessage++}`,
        author_id: chat.userId,
        created,
        direction: 'out',
        type: 'text',
        content: { text: send.data.message.text },
        is_read: false,
      };
      chat.messages.push(message);
      chat.updated = created;
      chat.sent.push({ text: send.data.message.text, at: new Date().toISOString() });
      log(`chat ${chat.id}: the owner answered`);
      const { is_read: _, ...answer } = message;
      return json(res, 200, answer);
    }
    if (route === 'POST v1 read') {
      chat.reads += 1;
      for (const msg of chat.messages) if (msg.direction === 'in') msg.is_read = true;
      return json(res, 200, { ok: true });
    }
    throw itemError(404, 'not found');
  }

  /** The failure this request meets, if any (used up when counted). */
  function failureFor(clientId: string | undefined): FailRule | undefined {
    const rule = rules.find((r) => r.clientId === undefined || r.clientId === clientId);
    if (!rule) return undefined;
    if (rule.remaining !== null && --rule.remaining <= 0) rules = rules.filter((r) => r !== rule);
    return rule;
  }

  /** Answers as the failure says, or returns false (then 'slow' has already waited). */
  async function failed(rule: FailRule | undefined, res: ServerResponse): Promise<boolean> {
    if (!rule) return false;
    if (rule.mode === 'slow') {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, rule.delayMs);
        timers.add(t);
      });
      return false;
    }
    if (rule.mode === 'down') json(res, 503, { error: { code: 503, message: 'service unavailable' } });
    else if (rule.mode === 'rate')
      json(res, 429, { error: { code: 429, message: 'too many requests' } }, { 'retry-after': '1' });
    else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p>\u0000\u00ff junk');
    }
    return true;
  }

  // ——— The API

  async function token(req: IncomingMessage, res: ServerResponse, entry: LoggedRequest) {
    const text = await readText(req);
    const form = new URLSearchParams(text);
    const clientId = form.get('client_id') ?? undefined;
    if (clientId && clients.has(clientId)) entry.clientId = clientId;
    if (await failed(failureFor(clientId), res)) return;
    const oauth = (status: number, error: string, description: string) =>
      json(res, status, { error, error_description: description });
    if (req.method !== 'POST') return oauth(405, 'invalid_request', 'use POST');
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return oauth(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    if (form.get('grant_type') !== 'client_credentials')
      return oauth(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    const secret = form.get('client_secret');
    if (!clientId || !secret) return oauth(400, 'invalid_request', 'client_id and client_secret are required');
    const c = clients.get(clientId);
    if (!c) return oauth(400, 'invalid_client', 'client not found');
    if (c.clientSecret !== secret || c.revoked)
      return oauth(401, 'invalid_client', c.revoked ? 'client credentials revoked' : 'invalid client credentials');
    const accessToken = randomBytes(24).toString('base64url');
    const expiresIn = c.expiresIn ?? defaultExpiresIn;
    tokens.set(accessToken, { clientId, userId: c.userId, expiresAt: Date.now() + expiresIn * 1000 });
    tokensIssued += 1;
    issued.set(clientId, (issued.get(clientId) ?? 0) + 1);
    log(`token for ${clientId}, ${expiresIn} s`);
    json(res, 200, { access_token: accessToken, expires_in: expiresIn, token_type: 'Bearer' });
  }

  async function item(req: IncomingMessage, res: ServerResponse, url: URL, m: RegExpMatchArray, entry: LoggedRequest) {
    const [, api, userPart, itemPart, tail] = m as unknown as [
      string,
      'core' | 'realty',
      string,
      string,
      'bookings' | 'prices',
    ];
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const tok = bearer ? tokens.get(bearer) : undefined;
    entry.clientId = tok?.clientId ?? clientOfUser(Number(userPart))?.clientId;
    const text = await readText(req);
    if (await failed(failureFor(entry.clientId), res)) return;
    if (!bearer) throw itemError(401, 'authorization required: Bearer token');
    if (!tok) throw itemError(401, 'invalid access token');
    const c = clients.get(tok.clientId);
    if (!c || c.revoked) throw itemError(401, 'access token revoked');
    if (tok.expiresAt <= Date.now()) throw itemError(401, 'access token expired');
    const userId = Number(userPart);
    const itemId = Number(itemPart);
    if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(itemId)) throw itemError(404, 'not found');
    if (userId !== tok.userId) throw itemError(403, 'access denied: the token belongs to another account');
    const owner = ownerOf(itemId);
    if (!owner) throw itemError(404, 'item not found');
    if (owner.userId !== userId) throw itemError(403, 'access denied: the item belongs to another account');

    const route = `${req.method} ${api} ${tail}`;
    if (route === 'GET realty bookings') {
      const from = url.searchParams.get('date_start') ?? '';
      const to = url.searchParams.get('date_end') ?? '';
      const window = z.object({ from: isoDate, to: isoDate }).safeParse({ from, to });
      if (!window.success) throw itemError(400, `date_start, date_end: ${issueText(window.error)}`);
      if (to < from) throw itemError(400, 'date_end must not be before date_start');
      const unpaid = url.searchParams.get('with_unpaid') === 'true';
      // Overlapping the window (departure day not a night); canceled never, pending only with_unpaid.
      const list = (itemBookings.get(itemId) ?? []).filter(
        (b) => b.check_in <= to && b.check_out > from && b.status !== 'canceled' && (unpaid || b.status !== 'pending'),
      );
      return json(res, 200, { bookings: list });
    }
    if (req.method !== 'POST' || (api === 'core') !== (tail === 'bookings')) throw itemError(404, 'not found');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      throw itemError(400, 'content-type must be application/json');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw itemError(400, 'the body is not JSON');
    }
    const at = new Date().toISOString();
    if (tail === 'bookings') {
      const parsed = busyBody.safeParse(body);
      if (!parsed.success) throw itemError(400, issueText(parsed.error));
      const p = pushedOf(busyPushes, itemId);
      p.last = parsed.data.bookings;
      p.count += 1;
      p.history.push({ at, list: parsed.data.bookings, source: parsed.data.source });
      log(`item ${itemId}: ${parsed.data.bookings.length} busy ranges from ${parsed.data.source}`);
      return json(res, 200, { result: 'success' });
    }
    const parsed = pricesBody.safeParse(body);
    if (!parsed.success) throw itemError(400, issueText(parsed.error));
    const p = pushedOf(pricePushes, itemId);
    p.last = parsed.data.prices;
    p.count += 1;
    p.history.push({ at, list: parsed.data.prices });
    log(`item ${itemId}: ${parsed.data.prices.length} price periods`);
    return json(res, 200, { result: 'success' });
  }

  // ——— The controls

  async function control(req: IncomingMessage, res: ServerResponse, url: URL, path: string) {
    const text = await readText(req);
    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new Answered(400, { error: 'the body is not JSON' });
      }
    }
    const method = req.method ?? 'GET';
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/clients') {
      addClient(clientBody.parse(body));
      return json(res, 201, { ok: true });
    }
    if (method === 'POST' && (m = path.match(/^\/clients\/([^/]+)\/revoke$/))) {
      revoke(decodeURIComponent(m[1]!));
      return json(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/expires-in') {
      const o = z.object({ seconds: z.number().positive(), clientId: z.string().optional() }).parse(body);
      setExpiresIn(o.seconds, o.clientId);
      return json(res, 200, { ok: true });
    }
    if ((m = path.match(/^\/items\/(\d+)\/bookings$/))) {
      const itemId = Number(m[1]);
      if (method === 'POST') return json(res, 201, addBooking(itemId, body as AvitoBookingInput));
      if (method === 'GET') return json(res, 200, bookings(itemId));
    }
    if (method === 'DELETE' && (m = path.match(/^\/items\/(\d+)\/bookings\/(\d+)$/))) {
      const b = cancelBooking(Number(m[1]), Number(m[2]));
      return b ? json(res, 200, b) : json(res, 404, { error: 'no such booking' });
    }
    if (method === 'GET' && (m = path.match(/^\/items\/(\d+)\/pushed$/))) {
      const itemId = Number(m[1]);
      return json(res, 200, { busy: pushedOf(busyPushes, itemId), prices: pushedOf(pricePushes, itemId) });
    }
    if (method === 'GET' && path === '/log') {
      const clientId = url.searchParams.get('clientId');
      if (clientId)
        return json(res, 200, {
          tokensIssued: issued.get(clientId) ?? 0,
          requests: requests.filter((r) => r.clientId === clientId),
        });
      return json(res, 200, { tokensIssued, requests });
    }
    if (method === 'POST' && path === '/fail') {
      const o = failBody.parse(body);
      fail(o.mode, o);
      return json(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/chats') return json(res, 201, addChat(body as ChatInput));
    if (method === 'POST' && (m = path.match(/^\/chats\/([^/]+)\/messages$/))) {
      const o = z
        .object({ text: z.string().min(1), type: z.string().optional(), system: z.boolean().optional() })
        .parse(body);
      return json(res, 201, writeInChat(decodeURIComponent(m[1]!), o.text, o));
    }
    if (method === 'GET' && (m = path.match(/^\/chats\/([^/]+)$/))) {
      const chat = chats.get(decodeURIComponent(m[1]!));
      if (!chat) return json(res, 404, { error: 'no such chat' });
      return json(res, 200, { chat: chatView(chat), messages: chat.messages, sent: chat.sent, reads: chat.reads });
    }
    if (method === 'POST' && path === '/messenger') {
      const o = z.object({ userId: z.number().int(), refuse: z.boolean(), message: z.string().optional() }).parse(body);
      refuseMessenger(o.userId, o.refuse, o.message);
      return json(res, 200, { ok: true });
    }
    if (method === 'GET' && path === '/webhooks')
      return json(res, 200, webhooks.get(Number(url.searchParams.get('userId'))) ?? []);
    if (method === 'POST' && path === '/reset') {
      reset(typeof body.clientId === 'string' ? body.clientId : undefined);
      return json(res, 200, { ok: true });
    }
    throw new Answered(404, { error: `no control ${method} ${path}` });
  }

  const bookings = (itemId: number) => itemBookings.get(itemId) ?? [];

  const server: Server = steadyServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    void (async () => {
      if (path === '/_control' || path.startsWith('/_control/')) {
        try {
          await control(req, res, url, path.slice('/_control'.length));
        } catch (err) {
          if (err instanceof Answered) json(res, err.status, err.body);
          else if (err instanceof z.ZodError) json(res, 400, { error: issueText(err) });
          else json(res, 400, { error: err instanceof Error ? err.message : String(err) });
        }
        return;
      }
      const entry: LoggedRequest = {
        at: new Date().toISOString(),
        method: req.method ?? 'GET',
        path,
        query: url.search,
        status: 0,
      };
      requests.push(entry);
      // The status is logged as it is written, so a test reading the log right after its answer sees it.
      const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
      res.writeHead = ((...a: unknown[]) => {
        entry.status = a[0] as number;
        return writeHead(...a);
      }) as typeof res.writeHead;
      try {
        let m: RegExpMatchArray | null;
        if (path === '/token') return await token(req, res, entry);
        if ((m = path.match(/^\/(core|realty)\/v1\/accounts\/([^/]+)\/items\/([^/]+)\/(bookings|prices)$/)))
          return await item(req, res, url, m, entry);
        if (path.startsWith('/messenger/')) return await messenger(req, res, url, path, entry);
        await readText(req);
        const rule = failureFor(undefined);
        if (await failed(rule, res)) return;
        throw itemError(404, 'not found');
      } catch (err) {
        if (err instanceof Answered) json(res, err.status, err.body);
        else json(res, 500, { error: { code: 500, message: err instanceof Error ? err.message : String(err) } });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = opts.host ?? '127.0.0.1';
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    apiUrl: base,
    base,
    controlUrl: `${base}/_control`,
    addClient,
    revoke,
    setExpiresIn,
    addBooking,
    cancelBooking,
    bookings,
    pushedBusy: (itemId) => pushedOf(busyPushes, itemId),
    pushedPrices: (itemId) => pushedOf(pricePushes, itemId),
    requests,
    get tokensIssued() {
      return tokensIssued;
    },
    tokensIssuedTo: (clientId) => issued.get(clientId) ?? 0,
    fail,
    reset,
    addChat,
    writeInChat,
    chat: (chatId) => chats.get(chatId),
    refuseMessenger,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
