import * as z from 'zod/mini';
import { MSG } from './messages.ts';

// The sign-in form, in zod/mini: it is the only schema the admin login screen loads, and the
// full zod API would triple that screen's JavaScript on a phone.

export const loginSchema = z.object({
  username: z.string({ error: MSG.loginRequired }).check(z.trim(), z.minLength(1, MSG.loginRequired), z.maxLength(200, MSG.tooLong)),
  password: z.string({ error: MSG.loginRequired }).check(z.minLength(1, MSG.loginRequired), z.maxLength(500, MSG.tooLong)),
});

export type Login = z.infer<typeof loginSchema>;
