import { safeParse } from 'zod/mini';
import { loginSchema, type Login } from '../../../schema/login.ts';
import { fieldErrors, type FieldErrors } from '../ui/Field.tsx';

/** The sign-in form's check, with the same schema as POST /api/admin/login. */
export function checkLogin(values: Login): { ok: true; data: Login } | { ok: false; errors: FieldErrors } {
  const parsed = safeParse(loginSchema, values);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}
