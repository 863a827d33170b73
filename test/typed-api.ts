import { type ClientResponse, hc } from 'hono/client';
import type { AppType } from '../worker/app.ts';

/**
 * Our own /api at `baseUrl` (a server the test started, or the e2e stack) through Hono's typed
 * client: every route's path, input and answer are the app's own types, so a test reads an answer
 * without naming its shape. `cookie` is the session of a signed-in test, `headers` any others a
 * request carries (X-Real-IP behind the proxy).
 *
 *   const api = apiAt(server.url, { cookie });
 *   const cabins = await (await api.cabins.$get()).json();
 */
export function apiAt(baseUrl: string, init: { cookie?: string; headers?: Record<string, string> } = {}) {
  const headers = { ...init.headers, ...(init.cookie ? { cookie: init.cookie } : {}) };
  return hc<AppType>(baseUrl, { headers }).api;
}

/** The typed client's routes, to name what a route answers: `InferResponseType<Api['cabins']['$get'], 200>`. */
export type Api = ReturnType<typeof apiAt>;

/**
 * The answer's JSON typed as what the route answers with `status`; a test calls it where it has
 * already seen (or does not care about) the status, so it checks nothing: a different status is a
 * thrown error with the start of the body, never an assertion of its own.
 */
export async function bodyOf<R extends ClientResponse<unknown, number, 'json'>, S extends R['status']>(
  res: R,
  status: S,
): Promise<R extends ClientResponse<infer T, infer U> ? (U extends S ? T : never) : never> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${res.url} answered ${res.status}, not ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
