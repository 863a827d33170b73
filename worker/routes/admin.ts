import { Hono } from 'hono';
import { adminPathSchema, credentialsSchema, loginSchema } from '../../schema/admin.ts';
import { normalizeCode } from '../../schema/login.ts';
import { LOGIN_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { addressKey, clientIp } from '../lib/client-ip.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { readLiveBuild } from '../lib/live-build.ts';
import { guessWait, tooManyGuesses, type GuessLimit } from '../lib/guess-limits.ts';
import { hashPassword, sha256Hex, verifyPassword } from '../lib/password.ts';
import { checkSecondFactor, guessedRight, guessThrottled, refusedProof } from '../lib/second-factor.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import {
  clearSessionCookie,
  deviceToken,
  requireAdmin,
  sessionToken,
  setDeviceCookie,
  setSessionCookie,
} from '../middleware/session.ts';
import { getAdminPath, setAdminPath } from '../queries/admin.ts';
import { recordAudit } from '../queries/audit.ts';
import { findDevice, rememberDevice } from '../queries/devices.ts';
import { createSession, deleteSession } from '../queries/sessions.ts';
import { findUserByUsername, getUser, setCredentials } from '../queries/users.ts';
import { listCabins } from '../queries/cabins.ts';
import { clearHits, uncountGuess } from '../queries/rate-limit.ts';
import { getSettings } from '../queries/settings.ts';
import { getContentVersion } from '../queries/site-state.ts';
import { docs } from '../lib/openapi.ts';
import { cabinListAnswer, successAnswer } from '../../schema/answers.ts';

const doc = docs('Панель');

const LOGIN_ACTION = 'POST /api/admin/login';
/** «Журнал»'s name for whoever typed a login nobody has: what they typed may be a password, so it is not kept. */
const UNKNOWN_LOGIN = '—';
/**
 * A hash of a random password nobody knows, checked when no one has the login typed: an unknown
 * login then takes as long to refuse as a wrong password, so timing tells no one which logins exist.
 */
const NOBODY_HASH = 'pbkdf2-sha256$100000$v85eqQPfXZkPkva/26zKSg==$O3XfURtmjf3tymFnK/B0SjC3HoiEedOdLn/1JgC1Muc=';

/**
 * Whose count a sign-in's guess goes to besides its address's: the browser's, when its device
 * cookie names the person of the login typed (a stranger's guesses at that login elsewhere then
 * do not hold them back), else the login's as typed, whether anyone has it or not. The login is
 * kept as a hash of it in lower case: the same writes for every login, and no typed text stored.
 */
async function ownLimit(
  user: { id: number } | undefined,
  device: { id: number; userId: number } | undefined,
  username: string,
): Promise<GuessLimit> {
  if (user && device?.userId === user.id) return { key: `login-device:${device.id}`, schedule: LOGIN_THROTTLE.device };
  return { key: `login:${await sha256Hex(username.normalize('NFC').toLowerCase())}`, schedule: LOGIN_THROTTLE.login };
}

export const adminRoutes = new Hono<AppEnv>()
  .post(
    '/login',
    doc('Вход владельца или менеджера (с кодом, если включена 2FA)', { errors: [401, 429] }),
    jsonBody,
    validate('json', loginSchema),
    async (c) => {
      const ip = clientIp(c);
      const { username, password, code: typed } = c.req.valid('json');
      const user = await findUserByUsername(c.env, username);
      const oldDevice = deviceToken(c);
      const device = oldDevice ? await findDevice(c.env, oldDevice) : undefined;
      const own = await ownLimit(user, device, username);
      const address: GuessLimit = { key: `login-address:${addressKey(ip)}`, schedule: LOGIN_THROTTLE.address };
      // Counted before the password is checked, so parallel guesses cannot all slip past; the
      // login's count first, so a guess it refuses is counted against no address.
      const wait = await guessWait(c.env, [own, address]);
      if (wait !== undefined) return tooManyGuesses(c, wait, MSG.loginThrottled);
      const record = (outcome: 'ok' | 'failed', description: string) =>
        recordAudit(c.env, {
          actorId: user?.id ?? null,
          actor: user?.username ?? UNKNOWN_LOGIN,
          ip,
          action: LOGIN_ACTION,
          kind: 'account',
          description,
          outcome,
        });
      if (!(await verifyPassword(password, user?.passwordHash ?? NOBODY_HASH)) || !user) {
        // Written for an unknown login too: the same work either way.
        await record('failed', user ? 'Неверный пароль' : 'Неизвестный логин');
        return c.json({ success: false, error: MSG.loginFailed }, 401);
      }
      // The password was right: this login's (or browser's) wrong guesses are forgotten. The
      // address's stay, without this one: a good sign-in by one person forgives no one else's.
      await clearHits(c.env, own.key);
      let byRecoveryCode = false;
      if (user.totpSecret) {
        const code = typed ? normalizeCode(typed) : '';
        // The password was right: the second step, with no session yet.
        if (!code) {
          await uncountGuess(c.env, address.key);
          return c.json({ success: false, needsCode: true });
        }
        const throttled = await guessThrottled(c, user.id);
        if (throttled) {
          await uncountGuess(c.env, address.key);
          return throttled;
        }
        const factor = await checkSecondFactor(c.env, user, code);
        if (!factor) {
          await record('failed', 'Неверный код');
          return c.json({ success: false, needsCode: true, error: MSG.codeWrong }, 401);
        }
        byRecoveryCode = factor === 'recovery';
        await guessedRight(c.env, user.id);
      }
      await uncountGuess(c.env, address.key);
      const { token, expiresAt } = await createSession(c.env, {
        userId: user.id,
        userAgent: c.req.header('user-agent'),
        ip,
      });
      setSessionCookie(c, token);
      setDeviceCookie(c, await rememberDevice(c.env, user.id, oldDevice));
      await record('ok', byRecoveryCode ? 'Вход по коду восстановления' : 'Вход');
      return c.json({ success: true, expiresAt });
    },
  )
  .post('/logout', doc('Выход', { answer: successAnswer }), async (c) => {
    const token = sessionToken(c);
    const ended = token ? await deleteSession(c.env, token) : undefined;
    const user = ended && (await getUser(c.env, ended.userId));
    if (user) {
      await recordAudit(c.env, {
        actorId: user.id,
        actor: user.username,
        ip: clientIp(c),
        action: 'POST /api/admin/logout',
        kind: 'account',
        description: 'Выход',
      });
    }
    clearSessionCookie(c);
    return c.json({ success: true });
  })
  .use(requireAdmin)
  .get('/session', doc('Текущая сессия', { admin: true }), async (c) => {
    const { user, expiresAt } = c.get('session')!;
    return c.json({
      authenticated: true,
      username: user.username,
      role: user.role,
      twoFactor: user.twoFactor,
      expiresAt,
    });
  })
  .get('/cabins', doc('Все домики, и неактивные', { admin: true, answer: cabinListAnswer }), async (c) =>
    c.json(await listCabins(c.env, { includeInactive: true })),
  )
  .get('/settings', doc('Все настройки', { admin: true }), async (c) => c.json(await getSettings(c.env)))
  .get('/path', doc('Адрес панели', { admin: true }), async (c) => c.json({ path: await getAdminPath(c.env) }))
  .put(
    '/path',
    doc('Сменить адрес панели', { admin: true }),
    jsonBody,
    validate('json', adminPathSchema),
    async (c) => {
      const { path } = c.req.valid('json');
      await setAdminPath(c.env, path);
      return c.json({ success: true, path });
    },
  )
  // The person's own login and password: the current password always, and a code with two-factor
  // sign-in on; a new password ends their other sessions.
  .put(
    '/credentials',
    doc('Сменить логин или пароль', { admin: true }),
    jsonBody,
    validate('json', credentialsSchema),
    async (c) => {
      const { username, newPassword, currentPassword, code } = c.req.valid('json');
      const me = await getUser(c.env, c.get('user')!.id);
      if (!me) return apiError(c, 401, MSG.unauthorized);
      if (me.totpSecret && !code) return apiError(c, 400, MSG.codeRequired);
      const refused = await refusedProof(c, me, currentPassword, code);
      if (refused) return refused;
      const result = await setCredentials(
        c.env,
        me.id,
        c.get('session')!.id,
        username,
        newPassword ? await hashPassword(newPassword) : null,
      );
      if (result === 'taken') return apiError(c, 409, MSG.usernameTaken);
      return c.json({ success: true, username, passwordChanged: !!newPassword });
    },
  )
  .get('/publish', doc('Опубликован ли сайт с последними правками', { admin: true }), async (c) => {
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
  .post('/publish', doc('Пересобрать сайт сейчас', { admin: true }), async (c) => {
    if (!c.env.REBUILD) return apiError(c, 409, MSG.publishUnavailable);
    const version = await getContentVersion(c.env);
    afterResponse(c, 'Rebuild request', c.env.REBUILD.request(version));
    return c.json({ success: true as const }, 202);
  });
