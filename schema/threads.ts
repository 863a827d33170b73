import { z } from 'zod';
import { MSG } from './messages.ts';

// Conversations with guests («Сообщения» in the panel, docs/api.md «Conversations»): one thread
// per guest's booking and channel (an Avito chat: one per chat, with its cabin), holding what the guest wrote and what went to them, the
// automatic messages and the owner's answers alike.

export const THREAD_CHANNELS = ['telegram', 'max', 'sms', 'avito', 'email'] as const;
export type ThreadChannel = (typeof THREAD_CHANNELS)[number];

/** 'queued' until the outbox sent it, 'sent', 'failed' once given up; a guest's message is 'received'. */
export const MESSAGE_STATUSES = ['received', 'queued', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The longest answer the owner may send: what Telegram takes in one message. */
export const REPLY_MAX_LENGTH = 4096;
/** Threads one page of the list holds by default, and at most. */
export const THREADS_PAGE = { default: 50, max: 100 } as const;

const flag = z.enum(['1', '0', 'true', 'false'], { error: MSG.badInput }).transform((v) => v === '1' || v === 'true');

/**
 * GET /api/admin/threads?unread&channel&before&limit: `unread=1` only threads with unread
 * messages; `before` the id of the last thread already shown (the next page holds the threads after
 * it in the list's order: an older newest message, or the same moment and a smaller id).
 */
export const threadsQuerySchema = z.object({
  unread: flag.optional(),
  channel: z.enum(THREAD_CHANNELS, { error: MSG.badInput }).optional(),
  before: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, MSG.badInput)
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, MSG.badInput)
    .transform(Number)
    .refine((n) => n <= THREADS_PAGE.max, MSG.badInput)
    .optional(),
});
export type ThreadsQuery = z.infer<typeof threadsQuerySchema>;

/**
 * POST /api/admin/threads/{id}/messages: the owner's answer. `key` (optional) names this answer:
 * the same key again (a retry after a lost answer) queues nothing more.
 */
export const replySchema = z.strictObject(
  {
    text: z
      .string({ error: MSG.replyRequired })
      .trim()
      .min(1, MSG.replyRequired)
      .max(REPLY_MAX_LENGTH, MSG.replyTooLong),
    key: z
      .string({ error: MSG.badInput })
      .regex(/^[A-Za-z0-9_-]{8,64}$/, MSG.badInput)
      .optional(),
  },
  { error: MSG.badInput },
);
export type ReplyInput = z.infer<typeof replySchema>;

/** One thread as the list shows it; times are ISO strings. */
export const threadViewSchema = z.object({
  id: z.number(),
  bookingId: z.number().optional(),
  cabinId: z.number().optional(),
  channel: z.enum(THREAD_CHANNELS),
  guestName: z.string(),
  /** When the newest message was written or received. */
  lastAt: z.string(),
  /** The guest's messages the owner has not opened. */
  unread: z.number(),
  /** Since when the guest's oldest message without the owner's answer waits. */
  waitingSince: z.string().optional(),
  /** An Avito chat's booking on Avito (the same guest's at the chat's cabin), while Avito still holds it. */
  avitoBooking: z.object({ id: z.string(), checkIn: z.string(), checkOut: z.string() }).optional(),
});
export type ThreadView = z.infer<typeof threadViewSchema>;

export const messageViewSchema = z.object({
  id: z.number(),
  direction: z.enum(['in', 'out']),
  text: z.string(),
  at: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  /** Why it did not go (the last try's cause while it is still queued). */
  error: z.string().optional(),
  /** An automatic message (confirmation, reminder…) rather than the owner's own answer. */
  auto: z.boolean().optional(),
});
export type MessageView = z.infer<typeof messageViewSchema>;

/** One of the owner's templates filled for the thread's booking, as «Сообщения» offers it. */
export const filledTemplateSchema = z.object({ name: z.string(), text: z.string() });
export type FilledTemplate = z.infer<typeof filledTemplateSchema>;

export const threadAnswerSchema = z.object({
  thread: threadViewSchema,
  messages: z.array(messageViewSchema),
  /** The owner's templates, filled for this booking; in an Avito chat only those with no link. */
  templates: z.array(filledTemplateSchema),
});
export type ThreadAnswer = z.infer<typeof threadAnswerSchema>;
export const threadsAnswerSchema = z.array(threadViewSchema);
export const readAnswerSchema = z.object({ unread: z.literal(0) });

/** How the panel names each state of a message. */
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  received: 'получено',
  queued: 'в очереди',
  sent: 'отправлено',
  failed: 'ошибка',
};
export const THREAD_CHANNEL_LABELS: Record<ThreadChannel, string> = {
  telegram: 'Telegram',
  max: 'MAX',
  sms: 'SMS',
  avito: 'Авито',
  email: 'Почта',
};
