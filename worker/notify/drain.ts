import { sendAvitoRow } from '../channels/avito-chats.ts';
import type { Bindings } from '../env.ts';
import { bookingsOfMessages, claim, dueMessages, markFailed, markSent } from '../queries/outbox.ts';
import { CLEANER_DAY_KIND } from '../../schema/cleaning.ts';
import { sendCleanerRow } from './cleaning.ts';
import { sendGuestMessage } from './guest.ts';
import { sendGuestMax } from './guest-max.ts';
import { sendGuestSms } from './guest-sms.ts';
import { sendGuestTelegram } from './guest-telegram.ts';
import { markTryFailed, messageOf, outboxKey, ownerChannels, triedTooLong, type Channel } from './owner.ts';

/** How long one try holds a message. */
const RETRY_LEASE_MS = 60_000;
/** Messages one run of the schedule sends at most (fewer where its outbound requests are counted). */
const DRAIN_BATCH = 25;

/**
 * Sends the messages whose next try is due, once each (the schedule's every minute): the owner's
 * alerts by their channel, a guest's messages by e-mail to the guest (worker/notify/guest.ts), to
 * their Telegram chat or MAX dialog (worker/notify/guest-max.ts), or by SMS (worker/notify/guest-sms.ts),
 * and the answers to Avito's chats (worker/channels/avito-chats.ts). An
 * owner's message whose channel was switched off since, a guest's whose booking was cancelled
 * meanwhile, or one that has failed for days, is given up and logged. Each message is one outbound
 * request: `limit` holds a run to its share of a Worker's (the rest go in the next minutes).
 */
export async function drainOutbox(
  env: Bindings,
  opts: { limit?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const due = await dueMessages(env, Math.min(DRAIN_BATCH, opts.limit ?? DRAIN_BATCH));
  if (due.length === 0) return { sent: 0, failed: 0 };
  const forOwner = due.some((r) => r.bookingId === null && r.kind !== CLEANER_DAY_KIND);
  const guestIds = [...new Set(due.flatMap((r) => (r.bookingId === null ? [] : [r.bookingId])))];
  const [channels, stays] = await Promise.all([
    forOwner ? ownerChannels(env) : new Map<Channel, never>(),
    bookingsOfMessages(env, guestIds).then((rows) => new Map(rows.map((b) => [b.id, b]))),
  ]);
  let sent = 0;
  let failed = 0;
  // An SMS is two requests (its price, then the send): where a run's requests are counted, the
  // ones that no longer fit wait for the next run.
  let requests = 0;
  const budget = opts.limit ?? Number.POSITIVE_INFINITY;
  for (const row of due) {
    const cost = row.channel === 'sms' ? 2 : 1;
    if (requests + cost > budget) continue;
    if (!(await claim(env, row.id, RETRY_LEASE_MS))) continue;
    requests += cost;
    if (row.channel === 'avito') {
      // An answer to an Avito chat: its recipient is the chat, whether or not it has a booking.
      const outcome = await sendAvitoRow(env, row);
      if (outcome === 'sent') sent++;
      else if (outcome === 'failed') failed++;
      continue;
    }
    if (row.kind === CLEANER_DAY_KIND && row.bookingId === null) {
      // A cleaner's list of the day: to the chat the cleaner tied, by the owner's bot.
      if ((await sendCleanerRow(env, row)) === 'sent') sent++;
      else failed++;
      continue;
    }
    if (row.bookingId !== null) {
      const stay = stays.get(row.bookingId);
      const outcome =
        row.channel === 'telegram'
          ? await sendGuestTelegram(env, row, stay)
          : row.channel === 'max'
            ? await sendGuestMax(env, row, stay)
            : row.channel === 'sms'
              ? await sendGuestSms(env, row, stay)
              : await sendGuestMessage(env, row, stay);
      if (outcome === 'sent') sent++;
      else if (outcome === 'failed') failed++;
      continue;
    }
    const send = channels.get(row.channel as Channel);
    if (!send) {
      console.error(`Owner notification «${row.subject}» given up: ${row.channel} is no longer set`);
      await markFailed(env, row.id, `${row.channel} is no longer set`, { giveUp: true });
      continue;
    }
    try {
      const notice = { subject: row.subject, text: row.text };
      await send({ ...notice, key: await outboxKey(env, row.id, notice) });
      await markSent(env, row.id);
      sent++;
    } catch (err) {
      failed++;
      const tooOld = triedTooLong(row);
      console.error(
        `Owner notification by ${row.channel} failed again (try ${row.attempts + 1})${tooOld ? ', given up after 3 days' : ''}:`,
        messageOf(err),
      );
      await markTryFailed(env, row, err, tooOld);
    }
  }
  return { sent, failed };
}
