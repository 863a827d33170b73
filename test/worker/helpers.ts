import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type ClientResponse, hc, type InferResponseType } from 'hono/client';
import { expect } from 'vitest';
import app, { type AppType } from '../../worker/index.ts';
import { openApiDocument } from '../../worker/lib/openapi.ts';
import type { Bindings } from '../../worker/env.ts';
import type { CabinInput } from '../../schema/cabins.ts';
import { hashPassword } from '../../worker/lib/password.ts';
import { createCabin } from '../../worker/queries/cabins.ts';
import { submitReview, updateReview } from '../../worker/queries/reviews.ts';

/**
 * Storage in this plugin version is isolated per test FILE, not per test: rows written by one
 * test are still there in the next one of the same file (checked when this suite was written).
 * So every file calls `resetData()` in `beforeEach`: it empties the tables (the migrated schema
 * stays) and the bucket, and the admin account is created again from ADMIN_PASSWORD on first login.
 */
export const ORIGIN = 'http://127.0.0.1';
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'test-password-1';
export const SESSION_COOKIE = 'kaspiy_admin';

// Children before their parents: the foreign keys, and the trigger that keeps a cabin with bookings.
const TABLES = [
  'cleaner_link_codes',
  'cleaner_chats',
  'date_changes',
  'sms_spends',
  'sms_budget',
  'deposits',
  'payments',
  'messages',
  'threads',
  'guest_chats',
  'guest_link_codes',
  'telegram_updates',
  'guest_max_chats',
  'max_updates',
  'tasks',
  'cleaner_cabins',
  'sign_in_links',
  'bookings',
  'feed_events',
  'calendar_feeds',
  'calendar_blocks',
  'seasons',
  'cabin_calendars',
  'channel_stays',
  'channel_links',
  'cabins',
  'reviews',
  'settings',
  'admin_account',
  'admin_sessions',
  'known_devices',
  'users',
  'audit_log',
  'rate_limits',
  'site_state',
  'avito_account',
  'conflict_alerts',
  'outbox',
  'promo_codes',
  'visit_counts',
  'visit_sources',
  'visit_cabins',
  'visit_salt',
  'indexnow_state',
] as const;

export async function resetData(): Promise<void> {
  await env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  const listed = await env.MEDIA.list();
  if (listed.objects.length > 0) await env.MEDIA.delete(listed.objects.map((o) => o.key));
}

/**
 * Writes the owner's account ahead of the first login with a cheap hash (1,000 PBKDF2 iterations
 * instead of 100,000) of the same ADMIN_PASSWORD, so files that only need a signed-in admin stay
 * fast. auth.test.ts does not use it: there the account is created from ADMIN_PASSWORD for real.
 */
export async function seedAdmin(): Promise<void> {
  await seedUser(ADMIN_USERNAME, ADMIN_PASSWORD, 'owner', 1);
}

/** Another person who signs in (a manager, by default), with the same cheap hash; answers their id. */
export async function seedUser(
  username: string,
  password: string,
  role: 'owner' | 'manager' | 'cleaner' = 'manager',
  id?: number,
): Promise<number> {
  const row = await env.DB.prepare(
    'INSERT INTO users (id, username, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  )
    .bind(id ?? null, username, await hashPassword(password, 1000), role, Date.now())
    .first<{ id: number }>();
  return row!.id;
}

/** `resetData()` and then `seedAdmin()`. */
export async function resetDataWithAdmin(): Promise<void> {
  await resetData();
  await seedAdmin();
}

let ipCounter = 0;
/** A fresh client address, so login throttling and review limits of one test never touch another. */
export const freshIp = () => {
  ipCounter += 1;
  return `198.51.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

export type RequestOptions = {
  cookie?: string;
  ip?: string;
  origin?: string;
  headers?: Record<string, string>;
  /** Read as a visitor's browser does, without `cache-control: no-cache` (see headersFor). */
  asVisitor?: boolean;
};

/**
 * The tests write straight into D1 (resets, seeds), behind the API as another isolate would, so
 * their reads say `cache-control: no-cache` as the site's build does: the Worker then asks D1 for
 * the data stamp instead of trusting the one it read up to a second before (STAMP_TRUST_MS in
 * public-read-memory.ts). Reading as a visitor is public-reads.test.ts's business.
 */
function headersFor(opts: RequestOptions = {}, extra: Record<string, string> = {}): Headers {
  const h = new Headers(extra);
  if (!opts.asVisitor) h.set('cache-control', 'no-cache');
  if (opts.cookie) h.set('cookie', opts.cookie);
  h.set('cf-connecting-ip', opts.ip ?? freshIp());
  if (opts.origin) h.set('origin', opts.origin);
  for (const [k, v] of Object.entries(opts.headers ?? {})) h.set(k, v);
  return h;
}

type Contract = {
  routes: { method: string; path: string; pattern: RegExp; params: number }[];
  schemaOf: (method: string, path: string, status: number) => ValidateFunction | undefined;
};
let contract: Promise<Contract> | undefined;

/** The app's OpenAPI document (the one /api/openapi.json serves), its answers' schemas compiled as asked. */
async function loadContract(): Promise<Contract> {
  const doc = (await openApiDocument(app)) as unknown as {
    paths: Record<
      string,
      Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
    >;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const routes = Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
        params: path.split('{').length - 1,
      })),
    )
    // A fixed segment wins over a parameter (/api/reviews/approved, not /api/reviews/{id}).
    .sort((a, b) => a.params - b.params);
  const schemaOf = (method: string, path: string, status: number) => {
    if (!doc.paths[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.['application/json']?.schema)
      return undefined;
    return ajv.getSchema(
      `openapi#/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`,
    );
  };
  return { routes, schemaOf };
}

/**
 * Checks an answer of a documented route against the OpenAPI document: when the document gives
 * a JSON schema for the route and the status, the body must match it, or the test fails saying
 * where. The request helpers below call it on every answer, so each contract test checks the
 * document without saying so.
 */
export async function expectAsDocumented(anyCase: string, path: string, res: Response): Promise<Response> {
  const method = anyCase.toUpperCase();
  if (method === 'HEAD' || !/^application\/json/.test(res.headers.get('content-type') ?? '')) return res;
  const { routes, schemaOf } = await (contract ??= loadContract());
  const pathname = new URL(path, ORIGIN).pathname;
  const route = routes.find((r) => r.method === method && r.pattern.test(pathname));
  const validate = route && schemaOf(method, route.path, res.status);
  if (!route || !validate) return res;
  const text = await res.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${pathname} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!validate(body)) {
    const where = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
    throw new Error(
      `${method} ${pathname} → ${res.status} does not match the OpenAPI document (${method} ${route.path}): ${where.join('; ')}\nbody: ${text.slice(0, 300)}`,
    );
  }
  return res;
}

/** Full URL for a path on the test host (or another host, for the Secure-cookie checks). */
export const url = (path: string, origin = ORIGIN) => new URL(path, origin).href;

/** Any request through the worker's real fetch handler. */
export async function send(
  method: string,
  path: string,
  opts: RequestOptions & { body?: BodyInit | null; host?: string } = {},
) {
  return expectAsDocumented(
    method,
    path,
    await SELF.fetch(url(path, opts.host), { method, headers: headersFor(opts), body: opts.body ?? null }),
  );
}

/** A JSON request. A string body is sent as is (for malformed JSON); anything else is stringified. */
export async function jsonRequest(
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions & { host?: string } = {},
) {
  const init: RequestInit = {
    method,
    headers: headersFor(opts, { 'content-type': 'application/json' }),
  };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return expectAsDocumented(method, path, await SELF.fetch(url(path, opts.host), init));
}

/** Sets a cabin's seasons (and its minimum stay) as the owner does in «Календарь»; the answer as it came. */
export const putSeasons = (cookie: string, cabinId: number, body: { seasons: unknown[]; minNights?: number }) =>
  jsonRequest('PUT', `/api/admin/cabins/${cabinId}/seasons`, body, { cookie });

/** The typed Hono client, talking to the worker through SELF. */
export const client = (opts: RequestOptions = {}) =>
  hc<AppType>(ORIGIN, {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const target = input instanceof Request ? input.url : String(input);
      return expectAsDocumented(
        init?.method ?? (input instanceof Request ? input.method : 'GET'),
        target,
        await SELF.fetch(input, init),
      );
    },
    headers: () => Object.fromEntries(headersFor(opts).entries()),
  });

/**
 * The typed client's routes, to name what a route answers where a test sends its request another
 * way (raw, hostile, through `callWith`): `InferResponseType<Api['cabins'][':id']['$get'], 200>`.
 */
export type Api = ReturnType<typeof hc<AppType>>['api'];
/** What a visitor's booking request (POST /api/bookings) answers once held. */
export type Booked = InferResponseType<Api['bookings']['$post'], 201>;
/** What an upload (POST /api/upload) answers once stored. */
export type Uploaded = InferResponseType<Api['upload']['$post'], 201>;

/** `name=value` of the session cookie from a response's Set-Cookie, or undefined. */
export function sessionCookieFrom(res: { headers: Headers }): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1) return pair;
  }
  return undefined;
}

/** Signs in through the API and returns the `Cookie` header value of the new session. */
export async function login(opts: { username?: string; password?: string; ip?: string } = {}): Promise<string> {
  const res = await jsonRequest(
    'POST',
    '/api/admin/login',
    { username: opts.username ?? ADMIN_USERNAME, password: opts.password ?? ADMIN_PASSWORD },
    { ip: opts.ip },
  );
  expect(res.status, 'login should succeed').toBe(200);
  const cookie = sessionCookieFrom(res);
  expect(cookie, 'login should set the session cookie').toBeDefined();
  return cookie!;
}

export const sampleCabin = (overrides: Partial<CabinInput> = {}): CabinInput => ({
  name: 'Домик у моря',
  description: 'Уютный домик с видом на Каспий',
  pricePerNight: 4500,
  location: 'Каспийск',
  distanceToSea: '5 мин',
  amenities: ['Wi-Fi', 'Кухня'],
  images: ['/media/abc.jpg'],
  ...overrides,
});

/** A cabin written straight through the query layer. */
export const seedCabin = (overrides: Partial<CabinInput> = {}) => createCabin(env, sampleCabin(overrides));

/** A review written straight through the query layer, approved if asked. */
export async function seedReview(
  overrides: { name?: string; email?: string; rating?: number; comment?: string; approved?: boolean } = {},
) {
  const { approved, ...fields } = overrides;
  const review = await submitReview(env, {
    name: 'Анна',
    email: 'anna@example.ru',
    rating: 5,
    comment: 'Прекрасный отдых, всё понравилось',
    consent: true,
    ...fields,
  });
  return approved ? (await updateReview(env, review.id, { approved: true }))! : review;
}

/** A booking request a visitor may send: 3 nights two months ahead (in Moscow), 2 guests. */
export const validBooking = (cabinId: number, overrides: Record<string, unknown> = {}) => {
  const checkIn = addDays(todayInMoscow(), 60);
  return {
    cabinId,
    checkIn,
    checkOut: addDays(checkIn, 3),
    guests: 2,
    name: 'Анна',
    phone: '+7 928 555-12-34',
    email: 'anna@example.ru',
    comment: 'Приедем поздно вечером',
    consent: true,
    channel: 'whatsapp',
    website: '',
    ...overrides,
  };
};

export const validReview = (overrides: Record<string, unknown> = {}) => ({
  name: 'Иван',
  email: 'ivan@example.ru',
  rating: 4,
  comment: 'Хорошее место, чистое море',
  consent: true,
  ...overrides,
});

/**
 * Everything a request could wrongly change: content tables, the admin account, sessions and
 * the bucket's keys. Compare a snapshot taken before a refused request with one taken after.
 */
export async function snapshot() {
  // One batch, one round trip: the corpus takes two snapshots per group of requests, and 22
  // queries one after another cost more than the requests themselves.
  const [results, media] = await Promise.all([
    env.DB.batch(Object.values(SNAPSHOT_QUERIES).map((sql) => env.DB.prepare(sql))),
    env.MEDIA.list(),
  ]);
  const tables = Object.fromEntries(Object.keys(SNAPSHOT_QUERIES).map((name, i) => [name, results[i]!.results]));
  return { ...tables, media: media.objects.map((o) => `${o.key}:${o.size}`).sort() };
}

/** What a snapshot reads: content tables, the admin account, sessions, channels and chats. */
const SNAPSHOT_QUERIES = {
  cabins: 'SELECT * FROM cabins ORDER BY id',
  reviews: 'SELECT * FROM reviews ORDER BY id',
  settings: 'SELECT * FROM settings ORDER BY key',
  admin: 'SELECT * FROM admin_account',
  users: 'SELECT * FROM users ORDER BY id',
  // Not when a session was last seen, nor from where: any signed-in request renews those once a minute.
  sessions: 'SELECT id, token_hash, user_id, created_at, expires_at, user_agent FROM admin_sessions ORDER BY id',
  calendars: 'SELECT * FROM cabin_calendars ORDER BY cabin_id',
  seasons: 'SELECT * FROM seasons ORDER BY id',
  blocks: 'SELECT * FROM calendar_blocks ORDER BY id',
  feeds: 'SELECT * FROM calendar_feeds ORDER BY id',
  feedEvents: 'SELECT * FROM feed_events ORDER BY id',
  bookings: 'SELECT * FROM bookings ORDER BY id',
  payments: 'SELECT * FROM payments ORDER BY id',
  deposits: 'SELECT * FROM deposits ORDER BY id',
  date_changes: 'SELECT * FROM date_changes ORDER BY id',
  avito: 'SELECT * FROM avito_account',
  channelLinks: 'SELECT * FROM channel_links ORDER BY cabin_id',
  channelStays: 'SELECT * FROM channel_stays ORDER BY id',
  guestChats: 'SELECT * FROM guest_chats ORDER BY booking_id',
  linkCodes: 'SELECT * FROM guest_link_codes ORDER BY code_hash',
  telegramUpdates: 'SELECT * FROM telegram_updates ORDER BY bot_id, update_id',
  guestMaxChats: 'SELECT * FROM guest_max_chats ORDER BY booking_id',
  maxUpdates: 'SELECT * FROM max_updates ORDER BY key',
  tasks: 'SELECT * FROM tasks ORDER BY id',
  cleanerCabins: 'SELECT * FROM cleaner_cabins ORDER BY user_id, cabin_id',
  signInLinks: 'SELECT * FROM sign_in_links ORDER BY user_id',
  cleanerChats: 'SELECT * FROM cleaner_chats ORDER BY user_id, channel',
  cleanerLinkCodes: 'SELECT * FROM cleaner_link_codes ORDER BY code_hash',
  threads: 'SELECT * FROM threads ORDER BY id',
  messages: 'SELECT * FROM messages ORDER BY id',
  indexnow: 'SELECT * FROM indexnow_state',
  smsBudget: 'SELECT * FROM sms_budget ORDER BY month',
  smsSpends: 'SELECT * FROM sms_spends ORDER BY id',
} as const;

/** Runs `act` and checks that nothing in D1 or R2 changed meanwhile. */
export async function expectNoChange<T>(act: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await act();
  expect(await snapshot()).toEqual(before);
  return result;
}

/** Asserts the status and the `{ error: string }` body (optionally its exact text). */
export async function expectError(res: Response, status: number, message?: string) {
  const text = await res.text();
  expect(res.status, `body: ${text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error?: unknown };
  expect(typeof body.error).toBe('string');
  expect((body.error as string).length).toBeGreaterThan(0);
  if (message !== undefined) expect(body.error).toBe(message);
  return body as { error: string };
}

// Smallest files that pass the byte sniffing: the signature and a few bytes more.
export const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0xff, 0xd9,
]);
export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
export const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
export const WEBP = new Uint8Array([
  ...new TextEncoder().encode('RIFF'),
  0x1a,
  0,
  0,
  0,
  ...new TextEncoder().encode('WEBPVP8 '),
]);

export const MULTIPART_BOUNDARY = 'kaspiy-boundary-7d1f';
/** The content type that goes with `multipartBody`. */
export const MULTIPART_TYPE = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;

/**
 * A multipart body of one file, built by hand: FormData cannot send a truncated body, a body
 * streamed in pieces or an exact byte count, which the corpus and fault tests need.
 */
export function multipartBody(
  file: Uint8Array,
  name = 'photo.jpg',
  type = 'image/jpeg',
  field = 'image',
): Uint8Array<ArrayBuffer> {
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${MULTIPART_BOUNDARY}--\r\n`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

/** A multipart upload of one file in field `image` (or another field). */
export function uploadRequest(
  file: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string } | null,
  opts: RequestOptions & { field?: string } = {},
) {
  const form = new FormData();
  if (file) form.append(opts.field ?? 'image', new File([file.bytes], file.name, { type: file.type }));
  return send('POST', '/api/upload', { ...opts, body: form });
}

/** The owner's login and password hash, and the admin path (its default until one is stored). */
export const adminRow = async () =>
  (await env.DB.prepare(
    "SELECT username, password_hash, coalesce((SELECT admin_path FROM admin_account WHERE id = 1), 'admin') AS admin_path FROM users WHERE role = 'owner' ORDER BY id LIMIT 1",
  ).first<{
    username: string;
    password_hash: string;
    admin_path: string;
  }>())!;

/** The iteration count written in a stored `pbkdf2-sha256$<iterations>$salt$hash`. */
export const iterationsOf = (hash: string) => Number(hash.split('$')[1]);

/** How a D1 binding fails when the database cannot be reached: every call rejects (or throws). */
export function failingD1(mode: 'reject' | 'throw'): D1Database {
  const fail = () => {
    const err = new Error('D1_ERROR: Network connection lost.');
    if (mode === 'throw') throw err;
    return Promise.reject(err);
  };
  const statement: D1PreparedStatement = new Proxy({} as D1PreparedStatement, {
    get: (_, prop) => (prop === 'bind' ? () => statement : fail),
  });
  return new Proxy({} as D1Database, {
    get: (_, prop) => (prop === 'prepare' ? (mode === 'throw' ? fail : () => statement) : fail),
  });
}

/** What a test gives one call of the app through `callWith`. */
export type CallOptions = {
  body?: unknown;
  /** A body sent as it is (a form), with its own content type in `headers`. */
  rawBody?: string;
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
  bindings?: Partial<Bindings>;
};

/**
 * Calls the app in this runtime with bindings of the test's own (a stand-in's address, a mailer)
 * over the environment's, and waits for what the request does after its answer (mail, refunds).
 * `extra` is read at each call; `opts.bindings` replaces it for one call.
 */
export function callWith(extra: Partial<Bindings> | (() => Partial<Bindings>)) {
  return async (method: string, path: string, opts: CallOptions = {}): Promise<Response> => {
    const headers = new Headers({ 'cf-connecting-ip': opts.ip ?? freshIp() });
    if (opts.cookie) headers.set('cookie', opts.cookie);
    if (opts.body !== undefined) headers.set('content-type', 'application/json');
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
    const ctx = createExecutionContext();
    const bindings = opts.bindings ?? (typeof extra === 'function' ? extra() : extra);
    const res = await app.fetch(
      new Request(new URL(path, ORIGIN), {
        method,
        headers,
        body: opts.rawBody ?? (opts.body === undefined ? null : JSON.stringify(opts.body)),
      }),
      { ...env, ...bindings } as Bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return expectAsDocumented(method, path, res);
  };
}

/**
 * A messenger posting an update to the webhook it was given (`hookOf`: its address and secret),
 * with the secret in the `header` it sends it in, through the file's `call` to the app; `forge`
 * sends it to another path or with another header (null: none).
 */
export const webhookDeliverer =
  (
    call: (
      method: string,
      path: string,
      opts: { rawBody: string; headers: Record<string, string> },
    ) => Promise<Response>,
    hookOf: (token: string) => Promise<{ url: string; secret: string } | null>,
    header: string,
  ) =>
  async (token: string, update: unknown, forge: { path?: string; header?: string | null } = {}) => {
    const hook = await hookOf(token);
    expect(hook, 'the webhook should be set').not.toBeNull();
    const path = forge.path ?? new URL(hook!.url).pathname;
    const secret = forge.header === undefined ? hook!.secret : forge.header;
    return call('POST', path, {
      rawBody: JSON.stringify(update),
      headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [header]: secret }) },
    });
  };

/** The answer's JSON, once its status is the one expected (the start of the body says why not). */
// biome-ignore lint/suspicious/noExplicitAny: a test reads the answer as the shape it expects; callers that care name T
export async function jsonOf<T = any>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  return JSON.parse(text) as T;
}

/**
 * `jsonOf` for the typed client: the answer's JSON, once its status is the one expected, typed as
 * the route answers that status.
 */
export async function answerOf<R extends ClientResponse<unknown, number, 'json'>, S extends R['status']>(
  res: R,
  status: S,
): Promise<R extends ClientResponse<infer T, infer U> ? (U extends S ? T : never) : never> {
  return jsonOf(res as unknown as Response, status);
}
