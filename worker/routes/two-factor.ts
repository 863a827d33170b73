import { Hono } from 'hono';
import { recoveryCodesSchema, twoFactorCodeSchema, twoFactorEnableSchema } from '../../schema/account.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { verifyPassword } from '../lib/password.ts';
import { checkSecondFactor, guessedRight, guessThrottled, refusedProof } from '../lib/second-factor.ts';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash, totpStep } from '../lib/totp.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  getUser,
  replaceRecoveryCodes,
  setPendingSecret,
} from '../queries/users.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Учётные записи');

/**
 * Two-factor sign-in of the person signed in (docs/api.md «The owner's account»): set up (a secret
 * for the app, shown as a QR code by the panel), enable with the first code and the password,
 * disable with a code, new recovery codes for old with a code and the password (the person has
 * spent some, or fears the paper was seen). requireAdmin on each route: a sub-app's own `use` would cover other /admin routes.
 */
export const twoFactorRoutes = new Hono<AppEnv>()
  .post('/2fa/setup', doc('Начать настройку 2FA: секрет и QR-код', { admin: true }), requireAdmin, async (c) => {
    const me = await getUser(c.env, c.get('user')!.id);
    if (!me) return apiError(c, 401, MSG.unauthorized);
    if (me.totpSecret) return apiError(c, 409, MSG.twoFactorAlreadyOn);
    const secret = newTotpSecret();
    await setPendingSecret(c.env, me.id, secret);
    return c.json({ secret, otpauthUrl: otpauthUrl(secret, me.username) });
  })
  // The password too: with a stolen session cookie alone nobody can tie the account to their own phone.
  .post(
    '/2fa/enable',
    doc('Включить 2FA кодом из приложения', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', twoFactorEnableSchema),
    async (c) => {
      const { code, password } = c.req.valid('json');
      const me = await getUser(c.env, c.get('user')!.id);
      if (!me) return apiError(c, 401, MSG.unauthorized);
      if (me.totpSecret) return apiError(c, 409, MSG.twoFactorAlreadyOn);
      const pending = me.totpPendingSecret;
      if (!pending) return apiError(c, 409, MSG.twoFactorNotSetUp);
      const throttled = await guessThrottled(c, me.id);
      if (throttled) return throttled;
      if (!(await verifyPassword(password, me.passwordHash))) {
        c.set('auditFailed', true);
        return apiError(c, 400, MSG.currentPasswordWrong);
      }
      const step = totpStep(pending, code);
      if (step === null) {
        c.set('auditFailed', true);
        return apiError(c, 400, MSG.codeWrong);
      }
      const recoveryCodes = newRecoveryCodes();
      const hashes = await Promise.all(recoveryCodes.map(recoveryCodeHash));
      if (!(await enableTwoFactor(c.env, me.id, c.get('session')!.id, pending, step, hashes)))
        return apiError(c, 409, MSG.twoFactorNotSetUp);
      await guessedRight(c.env, me.id);
      return c.json({ recoveryCodes });
    },
  )
  // The password and a code (from the app, or one of the recovery codes, which this replaces).
  .post(
    '/2fa/recovery-codes',
    doc('Новые коды восстановления', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', recoveryCodesSchema),
    async (c) => {
      const { code, password } = c.req.valid('json');
      const me = await getUser(c.env, c.get('user')!.id);
      if (!me) return apiError(c, 401, MSG.unauthorized);
      if (!me.totpSecret) return apiError(c, 409, MSG.twoFactorOff);
      const refused = await refusedProof(c, me, password, code);
      if (refused) return refused;
      const recoveryCodes = newRecoveryCodes();
      if (
        !(await replaceRecoveryCodes(
          c.env,
          me.id,
          me.totpSecret,
          await Promise.all(recoveryCodes.map(recoveryCodeHash)),
        ))
      )
        return apiError(c, 409, MSG.twoFactorOff);
      return c.json({ recoveryCodes });
    },
  )
  .post(
    '/2fa/disable',
    doc('Выключить 2FA', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', twoFactorCodeSchema),
    async (c) => {
      const { code } = c.req.valid('json');
      const me = await getUser(c.env, c.get('user')!.id);
      if (!me) return apiError(c, 401, MSG.unauthorized);
      if (!me.totpSecret) return apiError(c, 409, MSG.twoFactorOff);
      const throttled = await guessThrottled(c, me.id);
      if (throttled) return throttled;
      if (!(await checkSecondFactor(c.env, me, code))) {
        c.set('auditFailed', true);
        return apiError(c, 400, MSG.codeWrong);
      }
      await disableTwoFactor(c.env, me.id);
      await guessedRight(c.env, me.id);
      return c.json({ success: true as const });
    },
  );
