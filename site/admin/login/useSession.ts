import { useCallback, useEffect, useRef, useState } from 'react';
import type { Role } from '../../../schema/account.ts';
import { ApiError, OFFLINE_MESSAGE, call, client, onSessionEnded } from '../client.ts';

export type SessionState =
  | { status: 'checking' }
  | { status: 'signedOut'; ended?: 'expired' | 'loggedOut' }
  | { status: 'signedIn'; username: string; role: Role; twoFactor: boolean; expiresAt: number }
  /** A cleaner's session: the server refuses them «who am I» as everything but «Сегодня». */
  | { status: 'cleaner' };

/** `needsCode`: the password was right and two-factor sign-in is on; the form asks for the code. */
export type LoginResult = { ok: true } | { ok: false; error: string; needsCode?: true };

/**
 * The server-side session of docs/api.md: checked on load, on return to the tab and when its
 * 30 minutes run out; any 401 from the API ends it here too.
 */
export function useSession() {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const signedIn = state.status === 'signedIn';

  const check = useCallback(async (reason: 'load' | 'recheck') => {
    try {
      const res = await client().admin.session.$get();
      if (res.status === 401) {
        // Read the body anyway: an unread response stays open in the browser, which then never
        // counts the page as loaded (Lighthouse waited out its time limit on the login page).
        await res.text().catch(() => '');
        setState((s) =>
          s.status === 'signedIn' || reason === 'recheck'
            ? { status: 'signedOut', ended: 'expired' }
            : { status: 'signedOut' },
        );
        return;
      }
      // Signed in, and refused the session's own details: only a cleaner is (worker/middleware/roles.ts).
      if (res.status === 403) {
        await res.text().catch(() => '');
        setState({ status: 'cleaner' });
        return;
      }
      if (!res.ok) throw new ApiError(res.status, res.statusText);
      const body = await res.json();
      // Count the time left by the server's clock, not the phone's.
      const serverNow = Date.parse(res.headers.get('date') ?? '') || Date.now();
      const expiresAt = Date.now() + (body.expiresAt - serverNow);
      setState({ status: 'signedIn', username: body.username, role: body.role, twoFactor: body.twoFactor, expiresAt });
    } catch {
      // Offline on load: show the form; a later call will tell the truth.
      if (reason === 'load') setState({ status: 'signedOut' });
    }
  }, []);

  useEffect(() => {
    void check('load');
    return onSessionEnded(() =>
      setState((s) => (s.status === 'signedIn' ? { status: 'signedOut', ended: 'expired' } : s)),
    );
  }, [check]);

  // When the 30 minutes run out, ask the server (it is the authority) and act on its answer.
  useEffect(() => {
    if (state.status !== 'signedIn') return;
    const left = Math.max(state.expiresAt - Date.now(), 0) + 1000;
    timer.current = setTimeout(() => void check('recheck'), Math.min(left, 2 ** 31 - 1));
    return () => clearTimeout(timer.current);
  }, [state, check]);

  // A phone wakes up with stale timers: check again whenever the panel comes back into view.
  useEffect(() => {
    if (!signedIn) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check('recheck');
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [signedIn, check]);

  const login = useCallback(
    async (username: string, password: string, code?: string): Promise<LoginResult> => {
      try {
        // A wrong password (401) and too many attempts (429) come with the SPEC's text.
        const body = await call(client().admin.login.$post({ json: { username, password, code } }), { auth: false });
        if (!body.success) return { ok: false, error: '', needsCode: true };
      } catch (err) {
        return { ok: false, error: err instanceof ApiError ? err.message : OFFLINE_MESSAGE };
      }
      await check('load');
      return { ok: true };
    },
    [check],
  );

  const logout = useCallback(async () => {
    try {
      await call(client().admin.logout.$post(), { auth: false });
    } catch {
      // Even offline, the panel forgets the session; the server drops it after 30 minutes.
    }
    setState({ status: 'signedOut', ended: 'loggedOut' });
  }, []);

  const refresh = useCallback(() => void check('recheck'), [check]);

  return { state, login, logout, refresh };
}
