// A small typed client of Avito's API for short-term rent («Краткосрочная аренда»):
// plain fetch (the same on Workers and on Node) with zod schemas of every answer we read, in the
// shapes of Avito's published API catalogue. The token comes by client credentials and is kept
// by the caller (a database row, through TokenStore); it is reused until a minute before it
// expires, and an item call answered 401 gets one new token and is retried once.
//
// Every failure is an AvitoError: `message` is for the log, `reason` is a Russian sentence for
// the owner (the cause and what to do), `retryable` says whether trying again later may help.
// Neither ever holds the client secret or a token: both are scrubbed out of anything Avito said.
import { z } from 'zod';
import { MSG } from '../../schema/messages.ts';

export const DEFAULT_AVITO_API = 'https://api.avito.ru';
/** The longest a call may take, token included; a caller may pass a shorter one. */
export const AVITO_TIMEOUT_MS = 15_000;
/** A stored token is renewed this long before it expires, so it does not expire on the way. */
const TOKEN_MARGIN_MS = 60_000;
/** What the whole list of bookings is sent as; Avito keeps it apart from other sources' lists. */
const BUSY_SOURCE = 'kaspiy';
const KEYS_PLACE = 'в личном кабинете Авито (раздел «Для профессионалов» → API)';

export type AvitoAccount = { clientId: string; clientSecret: string; userId: number; apiUrl: string };
export type StoredToken = { token: string; expiresAt: number };
/** Where the token lives between calls (the caller's database row); `expiresAt` in ms since the epoch. */
export type TokenStore = { get(): Promise<StoredToken | null>; set(t: StoredToken): Promise<void> };
/** `timeoutMs`: shorter than 15 s if the caller has less time; longer is cut to 15 s. */
export type AvitoCallOptions = { timeoutMs?: number };

/** Busy nights: `end` is the departure day, not busy itself (YYYY-MM-DD both). */
export type BusyRange = { start: string; end: string; comment?: string };
/** A period's price: `start`..`end` both included, as Avito's date_from/date_to; whole roubles. */
export type PriceRange = {
  start: string;
  end: string;
  pricePerNight: number;
  minNights: number;
  extraGuestFee?: number;
};
/** Avito's own word for a booking; one we do not know is kept as Avito wrote it. */
export type AvitoBookingStatus = 'active' | 'pending' | 'canceled' | (string & {});
/** A booking made on Avito. `checkOut` is the departure day; `price` in roubles. `canceled` holds no nights. */
export type AvitoBooking = {
  id: number;
  status: AvitoBookingStatus;
  checkIn: string;
  checkOut: string;
  guests: number;
  nights: number;
  price: number;
  name?: string;
  email?: string;
  phone?: string;
};

/** Avito's API base: AVITO_API_URL when set (tests and local runs point it at the stand-in). */
export function avitoApiUrl(env: { AVITO_API_URL?: string } = {}): string {
  return (env.AVITO_API_URL || DEFAULT_AVITO_API).replace(/\/+$/, '');
}

/** A token store in memory: for scripts and tests (the site keeps the token in avito_account). */
export function memoryTokenStore(initial: StoredToken | null = null): TokenStore & { current: StoredToken | null } {
  const store = {
    current: initial,
    get: async () => store.current,
    set: async (t: StoredToken) => {
      store.current = t;
    },
  };
  return store;
}

export type AvitoErrorKind =
  /** The keys were refused when asking for a token. */
  | 'keys'
  /** The keys or token worked before and are refused now. */
  | 'revoked'
  /** The listing is not this account's, or does not exist (403/404). */
  | 'item'
  /** Avito refused what we sent (400 and other 4xx). */
  | 'rejected'
  /** What we were about to send is wrong (bad dates, a listing number that is not one): nothing was sent. */
  | 'input'
  /** Avito refuses the Messenger API to the account (403 on a messenger call: its plan); `said` holds Avito's words. */
  | 'messenger'
  /** The chat is not there (404 on a chat's call). */
  | 'chat'
  | 'rate'
  | 'down'
  | 'timeout'
  | 'network'
  | 'garbage';

export class AvitoError extends Error {
  readonly kind: AvitoErrorKind;
  readonly status?: number;
  /** Trying again later may succeed (timeouts, no connection, 429, 5xx, an answer we cannot read). */
  readonly retryable: boolean;
  /** From a 429's Retry-After, when Avito gave one. */
  readonly retryAfterMs?: number;
  /** For the owner, in Russian: what went wrong and what to do. */
  readonly reason: string;
  /** Avito's own words about the refusal, as it gave them (a messenger refusal's, for the owner to read). */
  readonly said?: string;
  constructor(
    message: string,
    o: {
      kind: AvitoErrorKind;
      reason: string;
      retryable: boolean;
      status?: number;
      retryAfterMs?: number;
      said?: string;
    },
  ) {
    super(message);
    this.name = 'AvitoError';
    this.kind = o.kind;
    this.reason = o.reason;
    this.retryable = o.retryable;
    if (o.status !== undefined) this.status = o.status;
    if (o.retryAfterMs !== undefined) this.retryAfterMs = o.retryAfterMs;
    if (o.said !== undefined) this.said = o.said;
  }
}

// ——— Answers

const isoDate = z.string().refine(isIsoDate, 'not a YYYY-MM-DD date');

const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'not a Bearer token'),
});

const successSchema = z.object({ result: z.literal('success') });

const bookingSchema = z.looseObject({
  avito_booking_id: z.number().int(),
  // Any string: a status Avito adds later must not lose the other bookings of the answer.
  status: z.string(),
  check_in: isoDate,
  check_out: isoDate,
  guest_count: z.number(),
  nights: z.number(),
  base_price: z.number(),
  contact: z
    .looseObject({ name: z.string().nullish(), email: z.string().nullish(), phone: z.string().nullish() })
    .nullish(),
});
// One booking we cannot read fails the whole answer (retryable): dropping it would leave its
// nights free here, which is worse than trying again later.
const bookingsSchema = z.looseObject({ bookings: z.array(bookingSchema) });

/** Avito's error answers: `{ error: { code, message } }` on the item calls, OAuth's `{ error, error_description }` at /token. */
const errorSchema = z.looseObject({
  error: z
    .union([z.string(), z.looseObject({ code: z.unknown().optional(), message: z.string().optional() })])
    .optional(),
  error_description: z.string().optional(),
  message: z.string().optional(),
});

// ——— Calls

/** One public call: its account, its deadline (token, call and retry together), what to scrub. */
type Op = { account: AvitoAccount; signal: AbortSignal; timeoutMs: number; secrets: string[] };

function startOp(account: AvitoAccount, options: AvitoCallOptions | undefined): Op {
  const asked = options?.timeoutMs;
  const timeoutMs =
    asked !== undefined && Number.isFinite(asked) && asked > 0 ? Math.min(asked, AVITO_TIMEOUT_MS) : AVITO_TIMEOUT_MS;
  return { account, signal: AbortSignal.timeout(timeoutMs), timeoutMs, secrets: [account.clientSecret] };
}

function scrub(op: Op, text: string): string {
  let out = text;
  for (const secret of op.secrets) if (secret) out = out.split(secret).join('***');
  // The secret form-encoded (as sent in the token request), should anything echo the body.
  const encoded = op.account.clientSecret ? encodeURIComponent(op.account.clientSecret) : '';
  if (encoded) out = out.split(encoded).join('***');
  return out;
}

function fail(op: Op, message: string, o: ConstructorParameters<typeof AvitoError>[1]): AvitoError {
  return new AvitoError(scrub(op, message), {
    ...o,
    reason: scrub(op, o.reason),
    ...(o.said !== undefined ? { said: scrub(op, o.said) } : {}),
  });
}

type Answer = { status: number; headers: Headers; text: string };

async function exchange(
  op: Op,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const where = `${method} ${path.split('?')[0]}`;
  try {
    const res = await fetch(`${op.account.apiUrl}${path}`, {
      method,
      headers: { accept: 'application/json', ...headers },
      body,
      signal: op.signal,
    });
    // Read inside the deadline too: an answer whose body stalls is as slow as one that never starts.
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  } catch (err) {
    const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (op.signal.aborted) {
      const seconds = Math.round(op.timeoutMs / 100) / 10;
      throw fail(op, `Avito did not answer ${where} within ${op.timeoutMs} ms`, {
        kind: 'timeout',
        retryable: true,
        reason: `Авито не отвечает (нет ответа за ${String(seconds).replace('.', ',')} с): повторим позже`,
      });
    }
    throw fail(op, `Avito could not be reached for ${where}: ${what}`, {
      kind: 'network',
      retryable: true,
      reason: 'Авито не отвечает (нет связи с сервером): повторим позже',
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Avito's own words about an error, when it gave any (short, for the owner). */
function avitoMessage(text: string): string | undefined {
  const parsed = errorSchema.safeParse(parseJson(text));
  if (!parsed.success) return undefined;
  const { error, error_description, message } = parsed.data;
  const said =
    error_description ??
    (typeof error === 'object' ? error.message : undefined) ??
    message ??
    (typeof error === 'string' ? error : undefined);
  return said?.trim().slice(0, 200) || undefined;
}

function retryAfterMs(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

const snippet = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/** 429 and 5xx: Avito is busy or down, the same call later may succeed. Undefined for other statuses. */
function transient(op: Op, where: string, a: Answer): AvitoError | undefined {
  if (a.status === 429) {
    const after = retryAfterMs(a.headers.get('retry-after'));
    return fail(
      op,
      `Avito answered 429 to ${where}${after === undefined ? '' : ` (retry after ${after} ms)`}: ${snippet(a.text)}`,
      {
        kind: 'rate',
        status: 429,
        retryable: true,
        retryAfterMs: after,
        reason: 'Авито просит реже обращаться к нему: повторим позже',
      },
    );
  }
  if (a.status >= 500) {
    return fail(op, `Avito answered ${a.status} to ${where}: ${snippet(a.text)}`, {
      kind: 'down',
      status: a.status,
      retryable: true,
      reason: `Авито не отвечает (ошибка ${a.status}): повторим позже`,
    });
  }
  return undefined;
}

function garbage(op: Op, where: string, a: Answer, why: string): AvitoError {
  return fail(op, `Avito's answer ${a.status} to ${where} ${why}: ${snippet(a.text)}`, {
    kind: 'garbage',
    status: a.status,
    retryable: true,
    reason: 'Авито ответило непонятно: повторим позже',
  });
}

function read<T>(op: Op, where: string, a: Answer, schema: z.ZodType<T>): T {
  const json = parseJson(a.text);
  if (json === undefined) throw garbage(op, where, a, 'is not JSON');
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw garbage(
      op,
      where,
      a,
      `has an unexpected shape (${issue ? `${issue.path.join('.') || 'answer'}: ${issue.message}` : 'unknown'})`,
    );
  }
  return parsed.data;
}

/**
 * A new token by client credentials. `renewing`: the account had a token that Avito now refuses,
 * so keys refused here were revoked (or replaced), not mistyped.
 */
async function requestToken(op: Op, renewing: boolean): Promise<StoredToken> {
  const where = 'POST /token';
  const { clientId, clientSecret } = op.account;
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  }).toString();
  const a = await exchange(op, 'POST', '/token', { 'content-type': 'application/x-www-form-urlencoded' }, body);
  const busy = transient(op, where, a);
  if (busy) throw busy;
  if (a.status === 400 || a.status === 401 || a.status === 403) {
    const said = avitoMessage(a.text);
    throw fail(op, `Avito refused the keys of client ${clientId} (${a.status}${said ? `: ${said}` : ''})`, {
      kind: renewing ? 'revoked' : 'keys',
      status: a.status,
      retryable: false,
      reason: renewing
        ? `Авито больше не принимает ключи API: ключ отозван — создайте новый ${KEYS_PLACE} и впишите его в настройках сайта`
        : MSG.avitoKeysRefused,
    });
  }
  if (a.status < 200 || a.status > 299) throw rejected(op, where, a, undefined);
  const token = read(op, where, a, tokenSchema);
  op.secrets.push(token.access_token);
  return { token: token.access_token, expiresAt: Date.now() + token.expires_in * 1000 };
}

function rejected(op: Op, where: string, a: Answer, itemId: number | undefined): AvitoError {
  const said = avitoMessage(a.text);
  return fail(op, `Avito answered ${a.status} to ${where}: ${snippet(a.text)}`, {
    kind: 'rejected',
    status: a.status,
    retryable: false,
    reason: `Авито отклонило запрос${itemId === undefined ? '' : ` по объявлению ${itemId}`} (ошибка ${a.status}${said ? `: ${said}` : ''}): сообщите разработчику сайта`,
  });
}

/** The stored token while it has more than a minute left; otherwise a new one, stored. */
async function currentToken(op: Op, store: TokenStore): Promise<string> {
  const stored = await store.get();
  if (stored && stored.token && stored.expiresAt - TOKEN_MARGIN_MS > Date.now()) {
    op.secrets.push(stored.token);
    return stored.token;
  }
  const fresh = await requestToken(op, false);
  await store.set(fresh);
  return fresh.token;
}

async function itemCall<T>(
  op: Op,
  store: TokenStore,
  itemId: number,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T> {
  return authorizedCall(op, store, method, path, body, schema, (where, a) => {
    if (a.status === 403 || a.status === 404) {
      const said = avitoMessage(a.text);
      return fail(op, `Avito answered ${a.status} to ${where}: ${snippet(a.text)}`, {
        kind: 'item',
        status: a.status,
        retryable: false,
        reason: `Авито не нашло объявление ${itemId} в этом аккаунте: проверьте номер объявления${said ? ` (${said})` : ''}`,
      });
    }
    if (a.status < 200 || a.status > 299) return rejected(op, where, a, itemId);
    return undefined;
  });
}

/**
 * A call with the account's Bearer token: a 401 gets one new token and one more try, 429 and 5xx
 * are retryable failures; `refusal` turns any other answer that is no success into the failure
 * this kind of call means (undefined: read it as a success).
 */
async function authorizedCall<T>(
  op: Op,
  store: TokenStore,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
  refusal: (where: string, a: Answer) => AvitoError | undefined,
): Promise<T> {
  const where = `${method} ${path.split('?')[0]}`;
  let token = await currentToken(op, store);
  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const a = await exchange(op, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
    if (a.status === 401) {
      if (attempt === 1) {
        // Expired early, or revoked: one new token and one more try.
        const fresh = await requestToken(op, true);
        await store.set(fresh);
        token = fresh.token;
        continue;
      }
      throw fail(op, `Avito answered 401 to ${where} with a token just issued: ${snippet(a.text)}`, {
        kind: 'revoked',
        status: 401,
        retryable: false,
        reason: `Авито не пускает с этим ключом: ключ отозван — создайте новый ${KEYS_PLACE} и впишите его в настройках сайта`,
      });
    }
    const busy = transient(op, where, a);
    if (busy) throw busy;
    const refused = refusal(where, a);
    if (refused) throw refused;
    return read(op, where, a, schema);
  }
}

// ——— What we send, checked before sending

function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function badInput(op: Op, message: string, reason: string): AvitoError {
  return fail(op, message, { kind: 'input', retryable: false, reason });
}

function checkItem(op: Op, itemId: number) {
  if (!Number.isSafeInteger(itemId) || itemId <= 0) {
    throw badInput(
      op,
      `Not an Avito item id: ${String(itemId)}`,
      `Номер объявления Авито «${String(itemId)}» неверный: проверьте номер объявления`,
    );
  }
  const { userId } = op.account;
  if (!Number.isSafeInteger(userId) || userId <= 0) {
    throw badInput(
      op,
      `Not an Avito user id: ${String(userId)}`,
      `Номер профиля Авито «${String(userId)}» неверный: проверьте его ${KEYS_PLACE}`,
    );
  }
}

function checkPeriod(op: Op, what: string, start: string, end: string, endMayEqualStart: boolean) {
  const ok = isIsoDate(start) && isIsoDate(end) && (endMayEqualStart ? end >= start : end > start);
  if (!ok) {
    throw badInput(
      op,
      `Bad ${what} period ${JSON.stringify(start)}..${JSON.stringify(end)}`,
      `Сайт подготовил для Авито неверные даты (${start} — ${end}): сообщите разработчику сайта`,
    );
  }
}

function checkWhole(op: Op, what: string, n: number, min: number) {
  if (!Number.isSafeInteger(n) || n < min) {
    throw badInput(
      op,
      `Bad ${what}: ${String(n)}`,
      `Сайт подготовил для Авито неверное значение (${what}: ${String(n)}): сообщите разработчику сайта`,
    );
  }
}

const itemPath = (op: Op, api: 'core' | 'realty', itemId: number, tail: string) =>
  `/${api}/v1/accounts/${op.account.userId}/items/${itemId}/${tail}`;

// ——— The API

/** A new token for these keys (the store is not read nor written): e.g. to check keys the owner typed. */
export async function getToken(account: AvitoAccount, options?: AvitoCallOptions): Promise<StoredToken> {
  return requestToken(startOp(account, options), false);
}

/** The listing's busy nights as we know them: the whole list replaces what we pushed before (an empty one frees all). */
export async function pushBusy(
  account: AvitoAccount,
  store: TokenStore,
  itemId: number,
  ranges: BusyRange[],
  options?: AvitoCallOptions,
): Promise<void> {
  const op = startOp(account, options);
  checkItem(op, itemId);
  for (const r of ranges) checkPeriod(op, 'busy', r.start, r.end, false);
  const body = {
    bookings: ranges.map((r) => ({
      date_start: r.start,
      date_end: r.end,
      type: 'manual' as const,
      ...(r.comment ? { comment: r.comment } : {}),
    })),
    source: BUSY_SOURCE,
  };
  await itemCall(op, store, itemId, 'POST', itemPath(op, 'core', itemId, 'bookings'), body, successSchema);
}

/** The listing's prices by period: whole roubles a night and the shortest stay in nights. */
export async function pushPrices(
  account: AvitoAccount,
  store: TokenStore,
  itemId: number,
  prices: PriceRange[],
  options?: AvitoCallOptions,
): Promise<void> {
  const op = startOp(account, options);
  checkItem(op, itemId);
  for (const p of prices) {
    checkPeriod(op, 'price', p.start, p.end, true);
    checkWhole(op, 'night_price', p.pricePerNight, 1);
    checkWhole(op, 'minimal_duration', p.minNights, 1);
    if (p.extraGuestFee !== undefined) checkWhole(op, 'extra_guest_fee', p.extraGuestFee, 0);
  }
  const body = {
    prices: prices.map((p) => ({
      date_from: p.start,
      date_to: p.end,
      night_price: p.pricePerNight,
      minimal_duration: p.minNights,
      ...(p.extraGuestFee !== undefined ? { extra_guest_fee: p.extraGuestFee } : {}),
    })),
  };
  await itemCall(op, store, itemId, 'POST', itemPath(op, 'realty', itemId, 'prices'), body, successSchema);
}

/**
 * Bookings made on Avito for the listing that touch `from`..`to` (YYYY-MM-DD), unpaid ones
 * (`pending`) included. Statuses are passed on as Avito gives them: a `canceled` one holds no nights.
 */
export async function pullBookings(
  account: AvitoAccount,
  store: TokenStore,
  itemId: number,
  from: string,
  to: string,
  options?: AvitoCallOptions,
): Promise<AvitoBooking[]> {
  const op = startOp(account, options);
  checkItem(op, itemId);
  checkPeriod(op, 'bookings window', from, to, true);
  const query = new URLSearchParams({ date_start: from, date_end: to, with_unpaid: 'true' });
  const answer = await itemCall(
    op,
    store,
    itemId,
    'GET',
    `${itemPath(op, 'realty', itemId, 'bookings')}?${query}`,
    undefined,
    bookingsSchema,
  );
  return answer.bookings.map((b) => ({
    id: b.avito_booking_id,
    status: b.status,
    checkIn: b.check_in,
    checkOut: b.check_out,
    guests: b.guest_count,
    nights: b.nights,
    price: b.base_price,
    ...(b.contact?.name ? { name: b.contact.name } : {}),
    ...(b.contact?.email ? { email: b.contact.email } : {}),
    ...(b.contact?.phone ? { phone: b.contact.phone } : {}),
  }));
}

// ——— Messenger (Avito's chats): the shapes of Avito's Messenger API.

/** A chat about a listing, as the list gives it. `updated` and `created` in seconds since the epoch. */
export type AvitoChat = {
  id: string;
  /** The listing the chat is about (a chat between users has none). */
  itemId?: number;
  updated: number;
  /** The other side's name (the guest's), when Avito gave it. */
  guestName?: string;
  lastMessage?: {
    id: string;
    direction: 'in' | 'out' | (string & {});
    created: number;
    type?: string;
    authorId?: number;
  };
};
/** A message of a chat: `text` is what the owner is shown (words for what is not text); `created` in s. */
export type AvitoMessage = {
  id: string;
  authorId: number;
  created: number;
  direction: 'in' | 'out' | (string & {});
  type: string;
  text: string;
};

const messageContent = z
  .looseObject({
    text: z.string().nullish(),
    link: z.looseObject({ text: z.string().nullish(), url: z.string().nullish() }).nullish(),
    location: z.looseObject({ text: z.string().nullish(), title: z.string().nullish() }).nullish(),
    item: z.looseObject({ title: z.string().nullish() }).nullish(),
  })
  .nullish();

const chatSchema = z.looseObject({
  id: z.string().min(1),
  updated: z.number(),
  context: z
    .looseObject({ type: z.string().nullish(), value: z.looseObject({ id: z.number().nullish() }).nullish() })
    .nullish(),
  users: z.array(z.looseObject({ id: z.number(), name: z.string().nullish() })).nullish(),
  last_message: z
    .looseObject({
      id: z.string(),
      direction: z.string(),
      created: z.number(),
      type: z.string().nullish(),
      author_id: z.number().nullish(),
    })
    .nullish(),
});
const chatsSchema = z.looseObject({ chats: z.array(chatSchema) });

const messageSchema = z.looseObject({
  id: z.string().min(1),
  author_id: z.number(),
  created: z.number(),
  direction: z.string(),
  type: z.string(),
  content: messageContent,
});
// Avito's v3 answers the messages as a list; its older versions wrapped it in { messages }: both are read.
const messagesSchema = z.union([
  z.array(messageSchema),
  z.looseObject({ messages: z.array(messageSchema) }).transform((o) => o.messages),
]);
const sentSchema = z.looseObject({ id: z.string().min(1) });
const okSchema = z.looseObject({ ok: z.literal(true) });

/** The words «Сообщения» shows for a message that is not text (Avito sends photos, voice, calls…). */
const NOT_TEXT: Record<string, string> = {
  image: '[фото]',
  voice: '[голосовое сообщение]',
  video: '[видео]',
  file: '[файл]',
  call: '[звонок]',
  appCall: '[звонок]',
};

/** What the owner reads of a message; undefined for messages that say nothing (deleted, empty). */
export function messageText(type: string, content: z.infer<typeof messageContent>): string | undefined {
  if (type === 'deleted') return undefined;
  const text = content?.text?.trim();
  if (text) return text;
  if (type === 'link') return content?.link?.text?.trim() || content?.link?.url?.trim() || undefined;
  if (type === 'location')
    return `[место: ${content?.location?.text?.trim() || content?.location?.title?.trim() || 'на карте'}]`;
  if (type === 'item') return `[объявление${content?.item?.title ? `: ${content.item.title}` : ''}]`;
  return NOT_TEXT[type] ?? (type === 'text' ? undefined : `[сообщение Авито: ${type}]`);
}

function checkUser(op: Op) {
  const { userId } = op.account;
  if (!Number.isSafeInteger(userId) || userId <= 0)
    throw badInput(
      op,
      `Not an Avito user id: ${String(userId)}`,
      `Номер профиля Авито «${String(userId)}» неверный: проверьте его ${KEYS_PLACE}`,
    );
}

/** A chat id as it goes into a path: Avito's are letters, digits, «~», «-», «_» and «:». */
function chatPart(op: Op, chatId: string): string {
  if (!/^[\w:~.-]{1,200}$/.test(chatId))
    throw badInput(op, `Not an Avito chat id: ${JSON.stringify(chatId)}`, 'Сайт не знает такого чата Авито');
  return encodeURIComponent(chatId);
}

/** Messenger calls: a 403 is Avito refusing the Messenger API to the account, in its own words. */
function messengerCall<T>(
  op: Op,
  store: TokenStore,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T> {
  return authorizedCall(op, store, method, path, body, schema, (where, a) => {
    if (a.status === 403) {
      const said = avitoMessage(a.text) ?? 'доступ запрещён';
      return fail(op, `Avito refused ${where} (403): ${snippet(a.text)}`, {
        kind: 'messenger',
        status: 403,
        retryable: false,
        said,
        reason: `Авито не даёт этому аккаунту работать с сообщениями через API: «${said}»`,
      });
    }
    if (a.status === 404) {
      return fail(op, `Avito answered 404 to ${where}: ${snippet(a.text)}`, {
        kind: 'chat',
        status: 404,
        retryable: false,
        reason: 'Авито не нашло этот чат: возможно, он удалён',
      });
    }
    if (a.status < 200 || a.status > 299) return rejected(op, where, a, undefined);
    return undefined;
  });
}

const messengerPath = (op: Op, version: 1 | 2 | 3, tail: string) =>
  `/messenger/v${version}/accounts/${op.account.userId}/${tail}`;

function chatOf(op: Op, c: z.infer<typeof chatSchema>): AvitoChat {
  const itemId = c.context?.type === 'item' ? c.context.value?.id : undefined;
  const guest = c.users?.find((u) => u.id !== op.account.userId);
  return {
    id: c.id,
    updated: c.updated,
    ...(typeof itemId === 'number' ? { itemId } : {}),
    ...(guest?.name ? { guestName: guest.name } : {}),
    ...(c.last_message
      ? {
          lastMessage: {
            id: c.last_message.id,
            direction: c.last_message.direction,
            created: c.last_message.created,
            ...(c.last_message.type ? { type: c.last_message.type } : {}),
            ...(typeof c.last_message.author_id === 'number' ? { authorId: c.last_message.author_id } : {}),
          },
        }
      : {}),
  };
}

/** The account's chats about listings, the last changed first (one page of up to 100). */
export async function listChats(
  account: AvitoAccount,
  store: TokenStore,
  o: { limit?: number } & AvitoCallOptions = {},
): Promise<AvitoChat[]> {
  const op = startOp(account, o);
  checkUser(op);
  const query = new URLSearchParams({ chat_types: 'u2i', limit: String(Math.min(100, Math.max(1, o.limit ?? 100))) });
  const answer = await messengerCall(
    op,
    store,
    'GET',
    `${messengerPath(op, 2, 'chats')}?${query}`,
    undefined,
    chatsSchema,
  );
  return answer.chats.map((c) => chatOf(op, c));
}

/** One chat (its listing and the guest's name). */
export async function getChat(
  account: AvitoAccount,
  store: TokenStore,
  chatId: string,
  options?: AvitoCallOptions,
): Promise<AvitoChat> {
  const op = startOp(account, options);
  checkUser(op);
  const c = await messengerCall(
    op,
    store,
    'GET',
    messengerPath(op, 2, `chats/${chatPart(op, chatId)}`),
    undefined,
    chatSchema,
  );
  return chatOf(op, c);
}

/** A chat's newest messages (up to 100), as Avito gives them (the newest first). */
export async function chatMessages(
  account: AvitoAccount,
  store: TokenStore,
  chatId: string,
  options?: AvitoCallOptions,
): Promise<AvitoMessage[]> {
  const op = startOp(account, options);
  checkUser(op);
  const list = await messengerCall(
    op,
    store,
    'GET',
    `${messengerPath(op, 3, `chats/${chatPart(op, chatId)}/messages/`)}?limit=100&offset=0`,
    undefined,
    messagesSchema,
  );
  return list.map((m) => ({
    id: m.id,
    authorId: m.author_id,
    created: m.created,
    direction: m.direction,
    type: m.type,
    text: messageText(m.type, m.content) ?? '',
  }));
}

/** Sends a text to a chat; Avito's id of the message it made. */
export async function sendChatMessage(
  account: AvitoAccount,
  store: TokenStore,
  chatId: string,
  text: string,
  options?: AvitoCallOptions,
): Promise<string> {
  const op = startOp(account, options);
  checkUser(op);
  const sent = await messengerCall(
    op,
    store,
    'POST',
    messengerPath(op, 1, `chats/${chatPart(op, chatId)}/messages`),
    { message: { text }, type: 'text' },
    sentSchema,
  );
  return sent.id;
}

/** Marks a chat read on Avito (the guest sees their messages were read). */
export async function markChatRead(
  account: AvitoAccount,
  store: TokenStore,
  chatId: string,
  options?: AvitoCallOptions,
): Promise<void> {
  const op = startOp(account, options);
  checkUser(op);
  await messengerCall(
    op,
    store,
    'POST',
    messengerPath(op, 1, `chats/${chatPart(op, chatId)}/read`),
    undefined,
    okSchema,
  );
}

/** Asks Avito to post every new message of the account's chats to `url` (its webhook, version 3). */
export async function subscribeWebhook(
  account: AvitoAccount,
  store: TokenStore,
  url: string,
  options?: AvitoCallOptions,
): Promise<void> {
  const op = startOp(account, options);
  checkUser(op);
  // The address holds the webhook's secret path: never in a log line, whatever Avito echoes.
  op.secrets.push(url, url.split('/').pop() ?? '');
  await messengerCall(op, store, 'POST', '/messenger/v3/webhook', { url }, okSchema);
}

/** What Avito's webhook posts for a new message (version 3). */
export const avitoHookSchema = z.looseObject({
  id: z.string().optional(),
  payload: z.looseObject({
    type: z.string(),
    value: z.looseObject({
      id: z.string().min(1),
      chat_id: z.string().min(1),
      user_id: z.number(),
      author_id: z.number(),
      created: z.number(),
      type: z.string(),
      chat_type: z.string().nullish(),
      item_id: z.number().nullish(),
      content: messageContent,
    }),
  }),
});
export type AvitoHook = z.infer<typeof avitoHookSchema>;
