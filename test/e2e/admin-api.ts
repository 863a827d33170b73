import { E2E_ADMIN_PASSWORD } from './global-setup.ts';

/**
 * The API as the test itself, for setting up content and putting it back: a session of its
 * own (cookie), never the browser's.
 */
export async function adminApi(baseURL: string, password = E2E_ADMIN_PASSWORD, username = 'admin') {
  const login = await fetch(`${baseURL}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`test login failed: ${login.status}`);
  // With two-factor on, a right password answers 200 without a session: say so, not a 401 later.
  const answer = (await login
    .clone()
    .json()
    .catch(() => null)) as { success?: boolean; needsCode?: boolean } | null;
  if (answer?.success === false)
    throw new Error(`test login gave no session${answer.needsCode ? ': two-factor is on for this account' : ''}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as unknown };
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
    put: (path: string, body: unknown) => send('PUT', path, body),
    del: (path: string) => send('DELETE', path),
    logout: () => send('POST', '/admin/logout'),
    /** Waits until the public site carries every content change so far. */
    async waitPublished(timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const { json } = await send('GET', '/admin/publish');
        if ((json as { upToDate?: boolean } | null)?.upToDate) return;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error('the public site did not catch up with the content');
    },
  };
}
