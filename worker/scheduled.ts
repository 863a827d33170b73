// The schedule both runtimes run (a Cron Trigger every minute on Workers, a timer in the Node
// server): every minute what changed goes to Avito, Avito's chats and the guests' Telegram bot are
// read (worker/channels/avito-chats.ts), the pages a publish changed go to IndexNow (worker/indexnow/), and the messages that
// failed are tried again (worker/notify/owner.ts, the outbox); every 5 minutes the imported calendars and
// Avito's bookings are read and conflicts between stays alerted; every 15 minutes booking requests
// past their retention lose their personal data (the period the owner set in «Настройки», 3
// years by default), unpaid holds run out, the check-in day's settlement receipts go out and the
// guests' reminders and review requests are queued (worker/notify/stay-messages.ts; the same run's
// drain sends them).
import { runDeposits } from './payments/deposits.ts';
import { getBooking } from './queries/bookings.ts';
import { getCabin } from './queries/cabins.ts';
import { AUDIT_KEPT_MS } from '../schema/account.ts';
import { todayInMoscow } from '../schema/dates.ts';
import { alertNewConflicts } from './calendar/conflicts.ts';
import { syncAllFeeds } from './calendar/sync.ts';
import { readAvitoChats } from './channels/avito-chats.ts';
import { pullAvito, pushAvito } from './channels/avito-sync.ts';
import type { Bindings } from './env.ts';
import { now } from './lib/clock.ts';
import { drainOutbox } from './notify/drain.ts';
import { queueStayMessages } from './notify/stay-messages.ts';
import { queueCleanerLists, queueNotCleanAlerts } from './notify/cleaning.ts';
import { forgetOldAudit } from './queries/audit.ts';
import { forgetOldAvitoChats } from './queries/avito-chats.ts';
import { forgetOldBookings } from './queries/bookings.ts';
import { forgetOldMessages } from './queries/outbox.ts';
import { forgetOldUpdates } from './queries/telegram-bot.ts';
import { pollTelegram } from './notify/guest-telegram.ts';
import { pollMaxQuietly } from './notify/guest-max.ts';
import { forgetOldMaxUpdates } from './queries/max-bot.ts';
import { getSettings } from './queries/settings.ts';
import { runPaymentSchedule } from './payments/schedule.ts';
import { forLog } from './lib/for-log.ts';
import { queueChangedPages } from './indexnow/queue.ts';
import { drainIndexNow } from './indexnow/send.ts';

/**
 * Which parts of the schedule are due: `push` each minute, `pull` each 5, `upkeep` each 15.
 * `messengers` false: the guests' Telegram and MAX bots are read elsewhere (the self-hosted
 * server's long polling, worker/platform/node/messenger-polling.ts), not with `push`.
 */
export type ScheduleJobs = { push: boolean; pull: boolean; upkeep: boolean; messengers?: boolean };
export const ALL_JOBS: ScheduleJobs = { push: true, pull: true, upkeep: true };

/** The jobs due at a cron tick of minute granularity (the Cron Trigger's scheduledTime). */
export function jobsAt(ms: number): ScheduleJobs {
  const minute = Math.floor(ms / 60_000);
  return { push: true, pull: minute % 5 === 0, upkeep: minute % 15 === 0 };
}

/** The jobs due at the n-th tick of a timer that ticks every minute from the server's start (0: all). */
export const jobsOfTick = (n: number): ScheduleJobs => ({ push: true, pull: n % 5 === 0, upkeep: n % 15 === 0 });

const MESSAGES_KEPT_MS = 7 * 24 * 60 * 60_000;

export async function runSchedule(env: Bindings, jobs: ScheduleJobs = ALL_JOBS): Promise<void> {
  // A Worker's outbound requests per run are counted (SUBREQUESTS_PER_RUN, set by the Cloudflare
  // entry, 45): they are shared in quarters of 11. Avito gets one quarter for reading bookings and
  // one for sends (up to two calls a listing), each listing read within its 5 minutes, the ones
  // waiting longest first; Avito's chats a quarter (the list and up to 9 changed chats a minute,
  // one request kept for a token or the webhook's subscription: 540 chats an hour, beside the
  // webhook where the site has an https address); and the outbox the last quarter (one request a
  // message, the answers to Avito's chats included: 11 a minute). The Node server has no such
  // limit. Reading first: an import or an Avito booking that changed busy nights goes out in the
  // same run. IndexNow takes at most two beside them, under the Free plan's 50: one read of the
  // site's page list (the assets binding) and one list sent (a publish's every changed address).
  const share = env.SUBREQUESTS_PER_RUN ? Math.max(1, Math.floor(env.SUBREQUESTS_PER_RUN / 4)) : undefined;
  if (jobs.push || jobs.pull) {
    const [feeds, avito, chats] = await Promise.allSettled([
      jobs.pull ? syncAllFeeds(env) : Promise.resolve([]),
      pullAvito(env, { staleOnly: !jobs.pull, limit: share }),
      // Every minute: a guest waits for an answer (the webhook, where there is one, is faster).
      jobs.push ? readAvitoChats(env, { limit: share }) : Promise.resolve({ read: 0, kept: 0 }),
    ]);
    if (chats.status === 'rejected') console.error('Reading Avito’s chats failed', forLog(chats.reason));
    if (feeds.status === 'rejected') console.error('Calendar sync failed', forLog(feeds.reason));
    else logFailures('Calendar sync', feeds.value);
    if (avito.status === 'rejected') console.error('Reading Avito failed', forLog(avito.reason));
    else logFailures('Reading Avito', avito.value);
    const read =
      (feeds.status === 'fulfilled' && feeds.value.length > 0) ||
      (avito.status === 'fulfilled' && avito.value.length > 0);
    if (read) await alertNewConflicts(env).catch((err) => console.error('Finding conflicts failed', forLog(err)));
  }
  if (jobs.upkeep) {
    const forget = async () => {
      const { bookingRetentionYears: years } = await getSettings(env);
      const cutoff = retentionCutoff(years);
      // Avito's chats with no booking here keep a guest's words too: they go after the same years.
      const [count, chats] = await Promise.all([
        forgetOldBookings(env, cutoff, todayInMoscow()),
        forgetOldAvitoChats(env, Date.parse(cutoff)),
      ]);
      return { years, count: count + chats };
    };
    // Messages to the owner name guests: a week after they went (or were given up), they go too.
    // A guest's reminder and review request need no index of their own every minute: arrival and
    // departure days change once a day, so every 15 minutes is on time.
    const [forgotten, payments, , stayMessages, heldDeposits] = await Promise.allSettled([
      forget(),
      runPaymentSchedule(env),
      forgetOldMessages(env, now() - MESSAGES_KEPT_MS),
      queueStayMessages(env),
      // Deposits nobody decided go back 2 days after departure (at most DEPOSITS_PER_RUN requests).
      releaseDeposits(env),
      forgetOldAudit(env, now() - AUDIT_KEPT_MS),
      forgetOldUpdates(env, now() - MESSAGES_KEPT_MS),
      forgetOldMaxUpdates(env, now() - MESSAGES_KEPT_MS),
    ]);
    if (heldDeposits.status === 'rejected') console.error('Releasing deposits failed', forLog(heldDeposits.reason));
    else if (heldDeposits.value) console.log(`Deposits released or decided at ЮKassa: ${heldDeposits.value}`);
    if (stayMessages.status === 'rejected')
      console.error('Queueing guests’ reminders and review requests failed', forLog(stayMessages.reason));
    else if (stayMessages.value.reminders || stayMessages.value.reviews)
      console.log(
        `Guest messages queued: ${stayMessages.value.reminders} reminder(s), ${stayMessages.value.reviews} review request(s)`,
      );
    if (payments.status === 'rejected') console.error('Prepayment schedule failed', forLog(payments.reason));
    else if (payments.value.expired || payments.value.receipts)
      console.log(`Holds expired: ${payments.value.expired}; settlement receipts sent: ${payments.value.receipts}`);
    if (forgotten.status === 'rejected') console.error('Erasing old booking requests failed', forLog(forgotten.reason));
    else if (forgotten.value.count > 0)
      console.log(
        `Personal data erased from ${forgotten.value.count} booking request(s) and Avito chat(s) older than ${forgotten.value.years} years`,
      );
  }
  if (jobs.push) {
    // Where the server has no public address, the guests' Telegram and MAX bots are read here (before the
    // drain, so a reply and the messages the same minute made go out together). A publish's
    // changed pages are queued for IndexNow before the drains too: they go in the same run.
    const polled = jobs.messengers !== false;
    const [, , indexNow, notClean, lists] = await Promise.allSettled([
      polled && pollTelegram(env).catch((err) => console.error('Reading the guests’ Telegram bot failed', forLog(err))),
      polled && pollMaxQuietly(env),
      queueChangedPages(env),
      // Checked every minute, so the hour before a check-in and 08:00 are kept to the minute.
      queueNotCleanAlerts(env),
      queueCleanerLists(env),
    ]);
    if (notClean.status === 'rejected')
      console.error('Checking the cleaning before arrivals failed', forLog(notClean.reason));
    if (lists.status === 'rejected') console.error('Queueing the cleaners’ lists failed', forLog(lists.reason));
    if (indexNow.status === 'rejected')
      console.error('Queueing the changed pages for IndexNow failed', forLog(indexNow.reason));
    else if (indexNow.value > 0) console.log(`IndexNow: ${indexNow.value} changed address(es) queued`);
    await Promise.all([
      // One request a run where they are counted: a list holds every changed address of a publish.
      drainIndexNow(env, { limit: env.SUBREQUESTS_PER_RUN ? 1 : undefined }).catch((err) =>
        console.error('IndexNow could not be sent', forLog(err)),
      ),
      pushAvito(env, { limit: share }).then(
        (r) => logFailures('Sending to Avito', r),
        (err) => console.error('Sending to Avito failed', forLog(err)),
      ),
      drainOutbox(env, { limit: share }).catch((err) => console.error('The outbox could not be sent', forLog(err))),
    ]);
  }
}

function logFailures(what: string, results: { name: string; ok: boolean; error: string | null }[]) {
  const failed = results.filter((r) => !r.ok);
  if (failed.length) console.error(`${what}:`, failed.map((r) => `${r.name}: ${r.error}`).join('; '));
}

/** The instant before which requests are past a retention of `years`. */
export function retentionCutoff(years: number, ms = now()): string {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString();
}

/** The schedule's part of deposits: the bookings they belong to read as each is reached. */
async function releaseDeposits(env: Bindings): Promise<number> {
  const { vatCode } = await getSettings(env);
  return runDeposits(
    env,
    todayInMoscow(now()),
    async (id) => {
      const booking = await getBooking(env, id);
      if (!booking) return undefined;
      return { booking, cabinName: (await getCabin(env, booking.cabinId))?.name ?? '' };
    },
    vatCode,
  );
}
