import { Hono } from 'hono';
import { adminPathSchema, credentialsSchema, loginSchema } from '../../schema/admin.ts';
import { LOGIN_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { readLiveBuild } from '../lib/live-build.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { clearSessionCookie, requireAdmin, sessionToken, setSessionCookie } from '../middleware/session.ts';
import {
  createSession,
  deleteOtherSessions,
  deleteSession,
  findSession,
  getAdmin,
  getAdminPath,
  setAdminPath,
  setCredentials,
} from '../queries/admin.ts';
import { listCabins } from '../queries/cabins.ts';
import { clearHits, hit } from '../queries/rate-limit.ts';
import { getSettings } from '../queries/settings.ts';
import { getContentVersion } from '../queries/site-state.ts';

export const adminRoutes = new Hono<AppEnv>()
  .post('/login', jsonBody, validate('json', loginSchema), async (c) => {
    const key = `login:${clientIp(c)}`;
    // Every attempt is counted before the password is checked, in one atomic upsert, so
    // parallel guesses cannot all read «no failures yet» and slip past the limit. A success
    // clears the count.
    if ((await hit(c.env, key, LOGIN_THROTTLE.windowMs)) > LOGIN_THROTTLE.maxFailures) {
      c.header('Retry-After', String(LOGIN_THROTTLE.windowMs / 1000));
      return apiError(c, 429, MSG.loginThrottled);
    }
    const { username, password } = c.req.valid('json');
    const admin = await getAdmin(c.env);
    const ok = !!admin && admin.username === username && (await verifyPassword(password, admin.passwordHash));
    if (!ok) return c.json({ success: false, error: MSG.loginFailed }, 401);
    await clearHits(c.env, key);
    const { token, expiresAt } = await createSession(c.env);
    setSessionCookie(c, token);
    return c.json({ success: true, expiresAt });
  })
  .post('/logout', async (c) => {
    const token = sessionToken(c);
    if (token) await deleteSession(c.env, token);
    clearSessionCookie(c);
    return c.json({ success: true });
  })
  .use(requireAdmin)
  .get('/session', async (c) => {
    const session = await findSession(c.env, sessionToken(c)!);
    const admin = await getAdmin(c.env);
    return c.json({ authenticated: true, username: admin?.username ?? '', expiresAt: session!.expiresAt });
  })
  .get('/cabins', async (c) => c.json(await listCabins(c.env, { includeInactive: true })))
  .get('/settings', async (c) => c.json(await getSettings(c.env)))
  .get('/path', async (c) => c.json({ path: await getAdminPath(c.env) }))
  .put('/path', jsonBody, validate('json', adminPathSchema), async (c) => {
    const { path } = c.req.valid('json');
    await setAdminPath(c.env, path);
    return c.json({ success: true, path });
  })
  .put('/credentials', jsonBody, validate('json', credentialsSchema), async (c) => {
    const { username, newPassword } = c.req.valid('json');
    await setCredentials(c.env, username, newPassword ? await hashPassword(newPassword) : null);
    if (newPassword) await deleteOtherSessions(c.env, sessionToken(c)!);
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
