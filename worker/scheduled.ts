// The schedule both runtimes run every 15 minutes (the Cron Trigger on Workers, a timer in the
// Node server): imported calendars are fetched, and booking requests past their retention lose
// their personal data.
import { BOOKING_RETENTION_YEARS } from '../schema/bookings.ts';
import { todayInMoscow } from '../schema/dates.ts';
import { syncAllFeeds } from './calendar/sync.ts';
import type { Bindings } from './env.ts';
import { now } from './lib/clock.ts';
import { forgetOldBookings } from './queries/bookings.ts';

export async function runSchedule(env: Bindings): Promise<void> {
  const [sync, forgotten] = await Promise.allSettled([syncAllFeeds(env), forgetOldBookings(env, retentionCutoff(), todayInMoscow())]);
  if (sync.status === 'rejected') console.error('Calendar sync failed', sync.reason);
  else {
    const failed = sync.value.filter((r) => !r.ok);
    if (failed.length) console.error('Calendar sync:', failed.map((r) => `${r.name}: ${r.error}`).join('; '));
  }
  if (forgotten.status === 'rejected') console.error('Erasing old booking requests failed', forgotten.reason);
  else if (forgotten.value > 0) console.log(`Personal data erased from ${forgotten.value} booking request(s) older than ${BOOKING_RETENTION_YEARS} years`);
}

/** The instant before which requests are past their retention. */
export function retentionCutoff(ms = now()): string {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() - BOOKING_RETENTION_YEARS);
  return d.toISOString();
}
