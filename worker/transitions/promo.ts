// A promo code's use follows its booking (docs/architecture.md «Transitions»): counted when the
// booking's nights are held for payment or the owner confirms it, given back when a hold ends
// unpaid. bookings.promo_claimed says whether this booking's use is counted, so a repeat of either
// changes nothing. Each statement carries the condition of the booking's own write and goes in the
// same batch, before that write.
import { sql, type SQL } from 'drizzle-orm';
import { promoCodes } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/** Gives back booking `id`'s use of its code, if it is counted, when `when` holds. */
export const releasePromoWhen = (env: DbEnv, id: number, when: SQL) =>
  getDb(env)
    .update(promoCodes)
    .set({ uses: sql`max(${promoCodes.uses} - 1, 0)` })
    .where(
      sql`${promoCodes.code} = (select b.promo_code from bookings b where b.id = ${id} and b.promo_claimed = 1) and ${when}`,
    );

/** Counts booking `id`'s use of its code, if not counted yet, when `when` holds (the owner confirms: counted even past its limit). */
export const claimPromoWhen = (env: DbEnv, id: number, when: SQL) =>
  getDb(env)
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(
      sql`${promoCodes.code} = (select b.promo_code from bookings b where b.id = ${id} and b.promo_claimed = 0) and ${when}`,
    );
