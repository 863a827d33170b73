import { Hono } from 'hono';
import { adminPathSchema, credentialsSchema, loginSchema } from '../../schema/admin.ts';
import { normalizeCode } from '../../schema/login.ts';
import { LOGIN_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { readLiveBuild } from '../lib/live-build.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { checkSecondFactor, guessedRight, guessThrottled, refusedProof } from '../lib/second-factor.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { clearSessionCookie, requireAdmin, sessionToken, setSessionCookie } from '../middleware/session.ts';
import { getAdminPath, setAdminPath } from '../queries/admin.ts';
import { recordAudit } from '../queries/audit.ts';
import { createSession, deleteSession } from '../queries/sessions.ts';
import { findUserByUsername, getUser, setCredentials } from '../queries/users.ts';
import { listCabins } from '../queries/cabins.ts';
import { clearHits, hit } from '../queries/rate-limit.ts';
import { getSettings } from '../queries/settings.ts';
import { getContentVersion } from '../queries/site-state.ts';

const LOGIN_ACTION = 'POST /api/admin/login';
/**
 * A hash of a random password nobody knows, checked when no one has the login typed: an unknown
 * login then takes as long to refuse as a wrong password, so timing tells no one which logins exist.
 */
const NOBODY_HASH = 'pbkdf2-sha256$100000$v85eqQPfXZkPkva/26zKSg==$O3XfURtmjf3tymFnK/B0SjC3HoiEedOdLn/1JgC1Muc=';

export const adminRoutes = new Hono<AppEnv>()
  .post('/login', jsonBody, validate('json', loginSchema), async (c) => {
    const ip = clientIp(c);
    const key = `login:${ip}`;
    // Every attempt is counted before the password is checked, in one atomic upsert, so
    // parallel guesses cannot all read «no failures yet» and slip past the limit. A success
    // clears the count; the step that only asks for the code does not.
    if ((await hit(c.env, key, LOGIN_THROTTLE.windowMs)) > LOGIN_THROTTLE.maxFailures) {
      c.header('Retry-After', String(LOGIN_THROTTLE.windowMs / 1000));
      return apiError(c, 429, MSG.loginThrottled);
    }
    const { username, password, code: typed } = c.req.valid('json');
    const user = await findUserByUsername(c.env, username);
    const record = (outcome: 'ok' | 'failed', description: string) =>
      recordAudit(c.env, { actorId: user!.id, actor: user!.username, ip, action: LOGIN_ACTION, kind: 'account', description, outcome });
    if (!(await verifyPassword(password, user?.passwordHash ?? NOBODY_HASH)) || !user) {
      if (user) await record('failed', 'Неверный пароль');
      return c.json({ success: false, error: MSG.loginFailed }, 401);
    }
    let byRecoveryCode = false;
    if (user.totpSecret) {
      const code = typed ? normalizeCode(typed) : '';
      // The password was right: the second step, with no session yet.
      if (!code) return c.json({ success: false, needsCode: true });
      const throttled = await guessThrottled(c, user.id);
      if (throttled) return throttled;
      const factor = await checkSecondFactor(c.env, user, code);
      if (!factor) {
        await record('failed', 'Неверный код');
        return c.json({ success: false, needsCode: true, error: MSG.codeWrong }, 401);
      }
      byRecoveryCode = factor === 'recovery';
      await guessedRight(c.env, user.id);
    }
    await clearHits(c.env, key);
    const { token, expiresAt } = await createSession(c.env, { userId: user.id, userAgent: c.req.header('user-agent'), ip });
    setSessionCookie(c, token);
    await record('ok', byRecoveryCode ? 'Вход по коду восстановления' : 'Вход');
    return c.json({ success: true, expiresAt });
  })
  .post('/logout', async (c) => {
    const token = sessionToken(c);
    const ended = token ? await deleteSession(c.env, token) : undefined;
    const user = ended && (await getUser(c.env, ended.userId));
    if (user) {
      await recordAudit(c.env, { actorId: user.id, actor: user.username, ip: clientIp(c), action: 'POST /api/admin/logout', kind: 'account', description: 'Выход' });
    }
    clearSessionCookie(c);
    return c.json({ success: true });
  })
  .use(requireAdmin)
  .get('/session', async (c) => {
    const { user, expiresAt } = c.get('session')!;
    return c.json({ authenticated: true, username: user.username, role: user.role, twoFactor: user.twoFactor, expiresAt });
  })
  .get('/cabins', async (c) => c.json(await listCabins(c.env, { includeInactive: true })))
  .get('/settings', async (c) => c.json(await getSettings(c.env)))
  .get('/path', async (c) => c.json({ path: await getAdminPath(c.env) }))
  .put('/path', jsonBody, validate('json', adminPathSchema), async (c) => {
    const { path } = c.req.valid('json');
    await setAdminPath(c.env, path);
    return c.json({ success: true, path });
  })
  // The person's own login and password: the current password always, and a code with two-factor
  // sign-in on; a new password ends their other sessions.
  .put('/credentials', jsonBody, validate('json', credentialsSchema), async (c) => {
    const { username, newPassword, currentPassword, code } = c.req.valid('json');
    const me = await getUser(c.env, c.get('user')!.id);
    if (!me) return apiError(c, 401, MSG.unauthorized);
    if (me.totpSecret && !code) return apiError(c, 400, MSG.codeRequired);
    const refused = await refusedProof(c, me, currentPassword, code);
    if (refused) return refused;
    const result = await setCredentials(c.env, me.id, c.get('session')!.id, username, newPassword ? await hashPassword(newPassword) : null);
    if (result === 'taken') return apiError(c, 409, MSG.usernameTaken);
    return c.json({ success: true, username, passwordChanged: !!newPassword });
  })
  .get('/publish', async (c) => {
    const contentVersion = await getContentVersion(c.env);
    const live = await readLiveBuild(c.env, c.req.url);
    const builder = (await c.env.REBUILD?.status()) ?? null;
    return c.json({
      contentVersion,
      liveVersion: live?.contentVersion ?? null,
      builtAt: live?.builtAt ?? null,
      upToDate: live !== null && live.contentVersion >= contentVersion,
      builder,
    });
  })
  // «Повторить» after a failed build: the same content is built again, nothing is bumped.
  .post('/publish', async (c) => {
    if (!c.env.REBUILD) return apiError(c, 409, MSG.publishUnavailable);
    const version = await getContentVersion(c.env);
    afterResponse(c, 'Rebuild request', c.env.REBUILD.request(version));
    return c.json({ success: true as const }, 202);
  });
