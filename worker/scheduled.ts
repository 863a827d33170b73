// The schedule both runtimes run every 15 minutes (the Cron Trigger on Workers, a timer in the
// Node server): imported calendars are fetched, booking requests past their retention lose
// their personal data (the period the owner set in «Настройки», 3 years by default), unpaid
// holds run out and the check-in day's settlement receipts go out.
import { todayInMoscow } from '../schema/dates.ts';
import { syncAllFeeds } from './calendar/sync.ts';
import type { Bindings } from './env.ts';
import { now } from './lib/clock.ts';
import { forgetOldBookings } from './queries/bookings.ts';
import { getSettings } from './queries/settings.ts';
import { runPaymentSchedule } from './payments/schedule.ts';

export async function runSchedule(env: Bindings): Promise<void> {
  const forget = async () => {
    const { bookingRetentionYears: years } = await getSettings(env);
    return { years, count: await forgetOldBookings(env, retentionCutoff(years), todayInMoscow()) };
  };
  const [sync, forgotten, payments] = await Promise.allSettled([syncAllFeeds(env), forget(), runPaymentSchedule(env)]);
  if (payments.status === 'rejected') console.error('Prepayment schedule failed', payments.reason);
  else if (payments.value.expired || payments.value.receipts) console.log(`Holds expired: ${payments.value.expired}; settlement receipts sent: ${payments.value.receipts}`);
  if (sync.status === 'rejected') console.error('Calendar sync failed', sync.reason);
  else {
    const failed = sync.value.filter((r) => !r.ok);
    if (failed.length) console.error('Calendar sync:', failed.map((r) => `${r.name}: ${r.error}`).join('; '));
  }
  if (forgotten.status === 'rejected') console.error('Erasing old booking requests failed', forgotten.reason);
  else if (forgotten.value.count > 0) console.log(`Personal data erased from ${forgotten.value.count} booking request(s) older than ${forgotten.value.years} years`);
}

/** The instant before which requests are past a retention of `years`. */
export function retentionCutoff(years: number, ms = now()): string {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString();
}
