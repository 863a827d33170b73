import { z } from 'zod';
import { MSG } from './messages.ts';
import { ADMIN_PATH_PATTERN, RESERVED_PATHS } from './constants.ts';

export { loginSchema } from './login.ts';

const newPassword = z.string().max(500, MSG.tooLong).refine((p) => p === '' || p.length >= 8, MSG.passwordTooShort);

/** SPEC.md names the new password `password` in the call and `newPassword` in the form; both are taken. */
export const credentialsSchema = z
  .object({
    username: z.string({ error: MSG.usernameInvalid }).trim().min(3, MSG.usernameInvalid).max(50, MSG.usernameInvalid),
    password: newPassword.optional(),
    newPassword: newPassword.optional(),
  })
  .transform(({ username, password, newPassword }) => ({ username, newPassword: newPassword || password || '' }));

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
