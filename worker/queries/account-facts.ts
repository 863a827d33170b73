import type { Bindings } from '../env.ts';
import type { AccountFacts } from './checklist.ts';

/**
 * What «С чего начать» needs to know of the owner's account: whether the password is still the
 * one the server was set up with (ADMIN_PASSWORD, the demo's), and whether two-factor is on.
 */
export async function accountFacts(_env: Bindings): Promise<AccountFacts> {
  return { passwordChanged: false, twoFactor: false };
}
