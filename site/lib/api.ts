import { hc } from 'hono/client';
import type { AppType } from '../../worker/app.ts';

/**
 * The typed API client the build uses to read content (and islands use for live calls).
 * At build time API_URL points at the running worker; in the browser calls are same-origin.
 */
export const apiBase = (): string =>
  typeof window === 'undefined' ? (process.env.API_URL ?? 'http://127.0.0.1:8787') : window.location.origin;

/**
 * The build reads what the owner has just saved: `no-cache` makes the Worker ask D1 for the data
 * stamp instead of trusting the one it read up to a second ago (worker/platform/public-read-memory.ts).
 */
const BUILD_READ = { headers: { 'cache-control': 'no-cache' } };

export const api = (base: string = apiBase()) => hc<AppType>(base, typeof window === 'undefined' ? BUILD_READ : {}).api;

/** A failed read fails the build, so the previous site keeps serving (docs/operations.md «Health checks»). */
export async function must<T>(
  res: { ok: boolean; status: number; statusText: string; json(): Promise<T> },
  what: string,
): Promise<T> {
  if (!res.ok) throw new Error(`API Error: ${res.status} ${res.statusText} (${what})`);
  return res.json();
}
