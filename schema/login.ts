import * as z from 'zod/mini';
import { MSG } from './messages.ts';

// The sign-in form, in zod/mini: it is the only schema the admin login screen loads, and the
// full zod API would triple that screen's JavaScript on a phone.

export const loginSchema = z.object({
  username: z
    .string({ error: MSG.loginRequired })
    .check(z.trim(), z.minLength(1, MSG.loginRequired), z.maxLength(200, MSG.tooLong)),
  password: z
    .string({ error: MSG.loginRequired })
    .check(z.minLength(1, MSG.loginRequired), z.maxLength(500, MSG.tooLong)),
  /** With two-factor sign-in on: the app's code or a recovery code; ignored when it is off. */
  code: z.optional(z.string({ error: MSG.codeWrong }).check(z.maxLength(40, MSG.codeWrong))),
});

/** A typed code as it is checked: without spaces and dashes, in lower case. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

export type Login = z.infer<typeof loginSchema>;
