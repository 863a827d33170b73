import { z } from 'zod';
import { MSG } from './messages.ts';
import { ADMIN_PATH_PATTERN, RESERVED_PATHS } from './constants.ts';
import { currentPasswordField } from './account.ts';
import { normalizeCode } from './login.ts';

export { loginSchema } from './login.ts';

const newPassword = z
  .string()
  .max(500, MSG.tooLong)
  .refine((p) => p === '' || p.length >= 8, MSG.passwordTooShort);

/**
 * The new password is named `password` in the call and `newPassword` in the form; both are
 * taken. Any change needs the current password, and the code too with two-factor sign-in on
 *: a stolen session cookie alone changes nothing.
 */
export const credentialsSchema = z
  .object({
    username: z.string({ error: MSG.usernameInvalid }).trim().min(3, MSG.usernameInvalid).max(50, MSG.usernameInvalid),
    password: newPassword.optional(),
    newPassword: newPassword.optional(),
    currentPassword: currentPasswordField,
    code: z.string({ error: MSG.codeWrong }).max(40, MSG.codeWrong).optional(),
  })
  .transform(({ username, password, newPassword, currentPassword, code }) => ({
    username,
    newPassword: newPassword || password || '',
    currentPassword,
    code: code ? normalizeCode(code) || undefined : undefined,
  }));

export const adminPathSchema = z.object({
  path: z
    .string({ error: MSG.adminPathInvalid })
    .trim()
    .transform((p) => p.replace(/^\/+|\/+$/g, ''))
    .pipe(
      z
        .string()
        .regex(ADMIN_PATH_PATTERN, MSG.adminPathInvalid)
        .refine((p) => !(RESERVED_PATHS as readonly string[]).includes(p.toLowerCase()), MSG.adminPathReserved),
    ),
});

export type Credentials = z.infer<typeof credentialsSchema>;
