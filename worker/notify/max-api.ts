import { z } from 'zod';
import { MAX_API_DEFAULT, MAX_TEXT_LIMIT, maxMeSchema, maxUpdatesSchema } from '../../schema/max.ts';

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
}

const REQUEST_TIMEOUT_MS = 10_000;

async function call<S extends z.ZodType>(
  env: MaxEnv,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  schema: S,
  opts: { query?: Record<string, string | number | undefined>; body?: unknown; timeoutMs?: number } = {},
): Promise<z.infer<S>> {
  const url = new URL(`${(env.MAX_API_URL || MAX_API_DEFAULT).replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: token, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
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

/**
 * GET /updates of the `bot_started` kind only, waiting up to `waitS` seconds for one.
 * Without a marker MAX gives every update not yet acknowledged; passing a marker acknowledges
 * the ones before it.
 */
export const getMaxStarts = (env: MaxEnv, token: string, waitS: number, marker?: number) =>
  call(env, token, 'GET', '/updates', maxUpdatesSchema, {
    query: { types: 'bot_started', limit: 100, timeout: waitS, marker },
    timeoutMs: REQUEST_TIMEOUT_MS + waitS * 1000,
  });

const ellipsis = '…';
/** POST /messages to a user's dialog with the bot; text past MAX's limit is cut. */
export async function sendMaxMessage(env: MaxEnv, token: string, userId: number, text: string): Promise<void> {
  const body = text.length > MAX_TEXT_LIMIT ? text.slice(0, MAX_TEXT_LIMIT - ellipsis.length) + ellipsis : text;
  await call(env, token, 'POST', '/messages', z.unknown(), { query: { user_id: userId }, body: { text: body } });
}
