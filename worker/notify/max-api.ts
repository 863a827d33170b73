import { z } from 'zod';
import { MAX_API_DEFAULT, MAX_TEXT_LIMIT, MAX_UPDATE_TYPES, maxMeSchema, maxUpdatesSchema } from '../../schema/max.ts';

/**
 * A small client of MAX's Bot API on plain fetch, the same on Workers and on Node. The token
 * goes in the Authorization header (MAX no longer takes it in the URL, and a URL ends up in logs).
 */

type MaxEnv = { MAX_API_URL?: string };

/** MAX refused or failed a call; `status` is its HTTP status, 0 when it did not answer at all. */
export class MaxApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'MaxApiError';
    this.status = status;
  }
  /** The token is wrong or revoked: trying again cannot help. */
  get tokenRejected() {
    return this.status === 401 || this.status === 403;
  }
  /** The user blocked the bot (403 `chat.denied`) or is gone (404): writing there again cannot help. */
  get chatGone() {
    return this.status === 403 || this.status === 404;
  }
}

const REQUEST_TIMEOUT_MS = 10_000;

async function call<S extends z.ZodType>(
  env: MaxEnv,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  schema: S,
  opts: {
    query?: Record<string, string | number | undefined>;
    body?: unknown;
    timeoutMs?: number;
    /** Ends the call early (the self-hosted server stopping during a long poll). */
    signal?: AbortSignal;
  } = {},
): Promise<z.infer<S>> {
  const url = new URL(`${(env.MAX_API_URL || MAX_API_DEFAULT).replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: token, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal
        ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new MaxApiError(
      0,
      `MAX ${method} ${path} did not answer: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const text = await res.text();
  if (!res.ok) throw new MaxApiError(res.status, `MAX ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MaxApiError(502, `MAX ${method} ${path} answered something that is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new MaxApiError(502, `MAX ${method} ${path} answered in an unexpected shape`);
  return parsed.data;
}

/** GET /me: the bot the token belongs to (its name and the username of its max.ru link). */
export const getMaxBot = (env: MaxEnv, token: string) => call(env, token, 'GET', '/me', maxMeSchema);

const ellipsis = '…';
/** POST /messages to a user's dialog with the bot; text past MAX's limit is cut. */
export async function sendMaxMessage(env: MaxEnv, token: string, userId: number, text: string): Promise<void> {
  const body = text.length > MAX_TEXT_LIMIT ? text.slice(0, MAX_TEXT_LIMIT - ellipsis.length) + ellipsis : text;
  await call(env, token, 'POST', '/messages', z.unknown(), { query: { user_id: userId }, body: { text: body } });
}

/**
 * GET /updates of every kind the bot reads (the owner's and guests' «Начать», what guests write),
 * waiting up to `waitS` seconds; `marker` acknowledges the updates before it.
 */
export const getMaxUpdates = (env: MaxEnv, token: string, waitS: number, marker?: number, signal?: AbortSignal) =>
  call(env, token, 'GET', '/updates', maxUpdatesSchema, {
    query: { types: MAX_UPDATE_TYPES.join(','), limit: 100, timeout: waitS, marker },
    timeoutMs: REQUEST_TIMEOUT_MS + waitS * 1000,
    signal,
  });

const okSchema = z.looseObject({ success: z.boolean().nullish(), message: z.string().nullish() });

/**
 * POST /subscriptions: MAX posts the bot's updates to `url` (https only), with `secret` in the
 * X-Max-Bot-Api-Secret header; while it is set, GET /updates gives nothing.
 */
export async function subscribeMax(env: MaxEnv, token: string, url: string, secret: string): Promise<void> {
  const answer = await call(env, token, 'POST', '/subscriptions', okSchema, {
    body: { url, update_types: [...MAX_UPDATE_TYPES], secret },
  });
  if (answer.success === false) throw new MaxApiError(400, `MAX POST /subscriptions refused: ${answer.message ?? ''}`);
}

/** DELETE /subscriptions?url=: MAX stops posting there (and GET /updates works again). */
export async function unsubscribeMax(env: MaxEnv, token: string, url: string): Promise<void> {
  await call(env, token, 'DELETE', '/subscriptions', okSchema, { query: { url } });
}

/**
 * A text in parts MAX takes (MAX_TEXT_LIMIT each), cut at a line's end where there is one in the
 * part's second half, else at a word's: a guest's message is never cut short.
 */
export function maxParts(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > MAX_TEXT_LIMIT) {
    const head = rest.slice(0, MAX_TEXT_LIMIT);
    const line = head.lastIndexOf('\n');
    const at = line >= MAX_TEXT_LIMIT / 2 ? line : head.lastIndexOf(' ');
    const cut = at >= MAX_TEXT_LIMIT / 2 ? at : MAX_TEXT_LIMIT;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** POST /messages to a guest's dialog with the bot, the whole text, in as many messages as it takes. */
export async function sendMaxGuestText(
  env: MaxEnv,
  token: string,
  userId: string,
  text: string,
  /** How many parts went in an earlier try: those are not sent again. */
  from = 0,
  /** Told after each part MAX took, with the count of parts gone so far (kept before the next goes). */
  sent: (count: number) => Promise<void> = async () => {},
): Promise<void> {
  const parts = maxParts(text);
  for (let i = from; i < parts.length; i++) {
    await call(env, token, 'POST', '/messages', z.unknown(), { query: { user_id: userId }, body: { text: parts[i] } });
    await sent(i + 1);
  }
}
