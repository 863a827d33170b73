import { todayInMoscow } from '../../schema/dates.ts';
import { apiAt } from '../typed-api.ts';
import { E2E_ADMIN_PASSWORD } from './global-setup.ts';

/** Past this a request of the test's own is reported by its path (a journey has 120 s in all). */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The API as the test itself, for setting up content and putting it back: a session of its
 * own (cookie), never the browser's. `client` is the typed client with that session, for reading
 * answers as the routes type them; `get`, `put`… send a path as written.
 */
export async function adminApi(baseURL: string, password = E2E_ADMIN_PASSWORD, username = 'admin') {
  const login = await apiAt(baseURL).admin.login.$post({ json: { username, password } });
  if (!login.ok) throw new Error(`test login failed: ${login.status}`);
  // With two-factor on, a right password answers 200 without a session: say so, not a 401 later.
  // The route's type is lost to its throttled answer (a plain Response): read what the answer says.
  const answer = await login
    .clone()
    .json()
    .catch(() => null);
  if (answer && typeof answer === 'object' && 'success' in answer && answer.success === false)
    throw new Error(
      `test login gave no session${'needsCode' in answer && answer.needsCode ? ': two-factor is on for this account' : ''}`,
    );
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const send = async (method: string, path: string, body?: unknown) => {
    // A request with no answer says which one it was, well inside the journey's own time.
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).catch((err: unknown) => {
      throw new Error(`${method} /api${path} had no answer`, { cause: err });
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as unknown };
  };
  const client = apiAt(baseURL, { cookie });
  return {
    client,
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
    put: (path: string, body: unknown) => send('PUT', path, body),
    del: (path: string) => send('DELETE', path),
    logout: () => send('POST', '/admin/logout'),
    /** A demo stay still ahead and confirmed, with its guest page: one its guest can cancel or tie a messenger to. */
    async stayAhead() {
      const bookings = await (await client.admin.bookings.$get({ query: {} })).json();
      const stay = bookings.find((b) => b.status === 'confirmed' && b.checkIn > todayInMoscow() && b.guestToken);
      if (!stay?.guestToken) throw new Error('the demo has no confirmed stay ahead with a guest page');
      return { ...stay, guestToken: stay.guestToken };
    },
    /** Waits until the public site carries every content change so far. */
    async waitPublished(timeoutMs = 90_000) {
      const until = Date.now() + timeoutMs;
      let last: unknown = null;
      while (Date.now() < until) {
        const publish = await (await client.admin.publish.$get()).json().catch(() => null);
        if (publish?.upToDate) return;
        last = publish;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`the public site did not catch up with the content in ${timeoutMs} ms: ${JSON.stringify(last)}`);
    },
  };
}
