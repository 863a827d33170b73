// What follows when a guest writes in a messenger and their words are kept in the booking's thread:
// the owner is alerted, and outside the owner's hours the guest gets the automatic answer.
import { autoAnswerPeriod } from '../../schema/reply-templates.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { fillReply, readReplyTemplates, threadStay } from '../queries/reply-templates.ts';
import { queueReply } from '../queries/threads.ts';
import { GUEST_LEASE_MS, messageOrigin } from './guest.ts';
import { guestMessageNotice } from './notices.ts';
import type { AlertOf, UpdateTaken } from '../queries/guest-bots.ts';
import {
  messageOf,
  OWNER_FIRST_LEASE_MS,
  ownerChannels,
  tryOwnerNow,
  type Channel,
  type OwnerNotice,
  type Sender,
} from './owner.ts';

/** The outbox's subject of the automatic answer (the chat gets only the text). */
const AUTO_ANSWER_SUBJECT = 'Автоответ';

/** An outbox row of a guest's chat just kept and held, as a channel's first try takes it. */
type Held = {
  id: number;
  attempts: 0;
  createdAt: number;
  bookingId: number;
  kind: string;
  recipient: string;
  text: string;
};

/**
 * Answers a guest who wrote outside the owner's hours, in the messenger they wrote in (`tryNow`
 * its first try), once per thread and such hours however many messages they write (the outbox
 * keeps one row per booking, channel and event, so two messages at once still queue one). It is no
 * answer of the owner's: the thread still waits for one. Never throws.
 */
export async function autoAnswerGuest(
  env: Bindings,
  channel: 'telegram' | 'max',
  bookingId: number,
  tryNow: (row: Held) => Promise<boolean>,
): Promise<void> {
  try {
    const due = await autoAnswerDue(env, bookingId);
    if (!due) return;
    const { text, period } = due;
    const kept = await queueReply(
      env,
      { bookingId, subject: AUTO_ANSWER_SUBJECT, text, event: `auto-answer-${period}`, kind: 'auto-answer', channel },
      GUEST_LEASE_MS,
    );
    if (!kept?.fresh) return;
    console.log(`Booking ${bookingId}: the automatic answer queued for the guest’s ${channel} chat`);
    await tryNow({
      id: kept.id,
      attempts: 0,
      createdAt: kept.createdAt,
      bookingId,
      kind: 'auto-answer',
      recipient: kept.recipient,
      text,
    });
  } catch (err) {
    console.error(`The automatic answer of booking ${bookingId} could not be kept:`, messageOf(err));
  }
}

/**
 * The automatic answer's words and the owner's hours it answers for (`period`: one answer per chat
 * and such hours), when it is on and now is outside the owner's hours; else undefined.
 */
export async function autoAnswerDue(
  env: Bindings,
  bookingId: number | undefined,
): Promise<{ text: string; period: string; body: string } | undefined> {
  const { autoAnswer } = await readReplyTemplates(env);
  if (!autoAnswer.enabled) return undefined;
  const period = autoAnswerPeriod(autoAnswer, now());
  if (!period) return undefined;
  const stay = bookingId === undefined ? undefined : await threadStay(env, bookingId);
  return { text: fillReply(autoAnswer.body, stay, messageOrigin(env)), period: String(period), body: autoAnswer.body };
}

/**
 * The owner's alert that a guest wrote in `messenger`, by the channels of their alerts (as a new
 * request is told), with the words and where to answer. `alertOf` gives its outbox rows to the
 * batch that stores the words (worker/queries/guest-bots.ts), so the alert exists exactly when the
 * words were stored; `sendNow` then tries the rows that batch wrote. Neither throws.
 */
export function ownerAlertOfGuestWords(env: Bindings, messenger: string, text: string) {
  let channels = new Map<Channel, Sender>();
  let notice: OwnerNotice | undefined;
  let lease = 0;
  // Read only for words that go into a booking's thread: a chat tied to none costs no read.
  const alertOf: AlertOf = async (bookingId) => {
    channels = await ownerChannels(env).catch((err) => {
      console.error('The owner’s channels could not be read for a guest’s message:', messageOf(err));
      return new Map<Channel, Sender>();
    });
    if (channels.size === 0) return null;
    // The words are stored whatever befalls their alert: a failed read only leaves the alert out.
    const stay = await threadStay(env, bookingId).catch((err) => {
      console.error(`The owner’s alert of a message about booking ${bookingId} could not be made:`, messageOf(err));
      return undefined;
    });
    if (!stay) return null;
    const said = guestMessageNotice({ id: bookingId, ...stay }, messenger, text, env.SITE_URL);
    notice = said;
    lease = now() + OWNER_FIRST_LEASE_MS;
    return { rows: [...channels.keys()].map((channel) => ({ channel, ...said })), leaseUntil: lease };
  };
  const sendNow = async (alerted: UpdateTaken['alerted']) => {
    if (!notice || !alerted?.length) return;
    const rows = alerted.map(({ channel, id }) => ({ channel: channel as Channel, id }));
    await tryOwnerNow(env, channels, { rows, lease }, notice);
  };
  return { alertOf, sendNow };
}
