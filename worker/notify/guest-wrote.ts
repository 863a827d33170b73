// What follows when a guest writes in a messenger and their words are kept in the booking's thread:
// the owner is alerted, and outside the owner's hours the guest gets the automatic answer.
import { autoAnswerPeriod } from '../../schema/reply-templates.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { fillReply, readReplyTemplates, threadStay } from '../queries/reply-templates.ts';
import { queueReply } from '../queries/threads.ts';
import { GUEST_LEASE_MS, messageOrigin } from './guest.ts';
import { guestMessageNotice } from './notices.ts';
import { messageOf, notifyOwner } from './owner.ts';

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
 * Tells the owner that a guest wrote, by the channels of their alerts (as a new request is told),
 * with the words and where to answer. Never throws.
 */
export async function alertOwnerOfGuestMessage(
  env: Bindings,
  bookingId: number,
  channel: string,
  text: string,
): Promise<void> {
  try {
    const stay = await threadStay(env, bookingId);
    if (!stay) return;
    await notifyOwner(env, guestMessageNotice({ id: bookingId, ...stay }, channel, text, env.SITE_URL));
  } catch (err) {
    console.error(`The owner’s alert of a message about booking ${bookingId} failed:`, messageOf(err));
  }
}
