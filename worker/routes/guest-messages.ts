import { Hono } from 'hono';
import { z } from 'zod';
import { GUEST_MESSAGE_KINDS } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { OutboxRow } from '../../schema/tables.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { sendGuestMessage } from '../notify/guest.ts';
import { getBooking } from '../queries/bookings.ts';
import { guestMessageOf, guestMessagesOf, rearmMessage } from '../queries/outbox.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Письма гостям');

/** One of a booking's messages as the owner reads it: times as ISO strings, null when not (yet). */
export type GuestMessageView = {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
  attempts: number;
  lastError: string | null;
  /** When the schedule tries again; null once sent or given up. */
  nextAttemptAt: string | null;
  givenUpAt: string | null;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const view = (r: OutboxRow): GuestMessageView => ({
  kind: r.kind ?? '',
  recipient: r.recipient ?? '',
  subject: r.subject,
  text: r.text,
  createdAt: iso(r.createdAt)!,
  sentAt: iso(r.sentAt),
  attempts: r.attempts,
  lastError: r.lastError,
  nextAttemptAt: r.sentAt !== null || r.givenUpAt !== null ? null : iso(r.nextAttemptAt),
  givenUpAt: iso(r.givenUpAt),
});

const messageParam = idParam.extend({ kind: z.enum(GUEST_MESSAGE_KINDS, { error: MSG.messageNotFound }) });
/** How long the owner's «Отправить снова» holds the message while it tries. */
const RETRY_LEASE_MS = 60_000;

/**
 * A booking's messages to its guest (docs/features.md «Письма гостям»), admin only: what was sent
 * when, what failed and why, and «Отправить снова» for one that did not go.
 */
export const guestMessageRoutes = new Hono<AppEnv>()
  .get(
    '/bookings/:id/messages',
    doc('Письма гостю по брони и их состояние', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getBooking(c.env, id))) return apiError(c, 404, MSG.bookingNotFound);
      return c.json((await guestMessagesOf(c.env, id)).map(view));
    },
  )
  // Made due again and tried at once; the answer is the message after that try.
  .post(
    '/bookings/:id/messages/:kind/retry',
    doc('Отправить письмо гостю ещё раз', { admin: true, errors: [404, 409] }),
    requireAdmin,
    validate('param', messageParam),
    async (c) => {
      const { id, kind } = c.req.valid('param');
      const booking = await getBooking(c.env, id);
      if (!booking) return apiError(c, 404, MSG.bookingNotFound);
      const row = await guestMessageOf(c.env, id, kind);
      if (!row) return apiError(c, 404, MSG.messageNotFound);
      if (row.sentAt !== null) return apiError(c, 409, MSG.messageAlreadySent);
      if (!c.env.MAILER) return apiError(c, 409, MSG.mailNotConfigured);
      // Someone is sending it this very moment (the schedule): the answer tells how that went.
      if ((await rearmMessage(c.env, row.id, RETRY_LEASE_MS)) !== null) await sendGuestMessage(c.env, row, booking);
      return c.json(view((await guestMessageOf(c.env, id, kind))!));
    },
  );
