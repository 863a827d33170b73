import { nextDayStartInMoscow } from '../../schema/dates.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { nextHoldEnd } from './bookings.ts';

/**
 * The next instant at which a public read (free dates, search, the catalogue) can change with no
 * write at all: a payment hold running out frees its nights, and the day turning in Moscow moves
 * "today" and the calendar's horizon. Until then, equal data give equal answers.
 */
export async function publicReadsChangeAt(env: { DB: DatabasePort }, ms: number): Promise<number> {
  const hold = await nextHoldEnd(env);
  return Math.min(nextDayStartInMoscow(ms), hold ? Date.parse(hold) : Infinity);
}
