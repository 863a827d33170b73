// Who is signed in: the owner sees every place of the panel; a manager does not see
// the owner's (payments, channels' keys, people, the panel's address, «Журнал», MAX alerts).
// The server refuses a manager those routes anyway: hiding them only spares a refusal.
import { createContext, useContext, type ReactNode } from 'react';
import type { Role } from '../../../schema/account.ts';

export type Me = { username: string; role: Role; twoFactor: boolean };

const MeContext = createContext<Me>({ username: '', role: 'owner', twoFactor: false });

export function MeProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** The person signed in: their login, role and whether they sign in with a code. */
export const useMe = (): Me => useContext(MeContext);

/** Whether the person signed in may see the owner's places. */
export const useIsOwner = (): boolean => useContext(MeContext).role === 'owner';

/** What a manager reads where the owner's controls would be. */
export function OwnerOnly({ what }: { what: string }) {
  return <p className="alert alert--info owner-only">Недостаточно прав: {what} может только владелец.</p>;
}
