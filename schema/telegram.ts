import { z } from 'zod';
import { formatStayDates } from './format.ts';
import { guestPageUrl, reviewUrl, type GuestMessageKind } from './guest-page.ts';
import { maxTokenSchema } from './max.ts';
import { MSG } from './messages.ts';
import { smsSettingsBody, smsStatusSchema } from './sms.ts';

// Guests' messages through the owner's Telegram bot (docs/api.md «Messengers»): the guest taps
// «Получать сообщения в Telegram» on their page, opens the bot by a one-time link, and from then
// on every automatic message of that booking also goes to that chat, as a short text with the
// link to the page. What never goes there is said in docs/operations.md «Telegram for guests».

/** The Bot API's own address; env TELEGRAM_API_URL overrides it (tests, `npm start`, a proxy). */
export const TELEGRAM_API_DEFAULT = 'https://api.telegram.org';
/** How long the one-time code of a link opens the bot for this booking. */
export const TELEGRAM_LINK_TTL_MS = 30 * 60_000;
/** Links one booking's page may ask for in an hour: each is a stored code, and the page's token alone must not grow the table. */
export const TELEGRAM_LINK_THROTTLE = { max: 20, windowMs: 60 * 60_000 } as const;
/** The most text Telegram takes in one message. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/**
 * The token as @BotFather gives it: the bot's number, a colon and its secret. It goes in the Bot
 * API's path, so nothing but these characters may pass.
 */
export const telegramTokenSchema = z
  .string({ error: MSG.telegramTokenRequired })
  .trim()
  .min(1, MSG.telegramTokenRequired)
  .max(200, MSG.telegramTokenInvalid)
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, MSG.telegramTokenInvalid);

/**
 * PUT /api/admin/messengers: a messenger left out is left as it is; `telegram: null` forgets the
 * bot, `sms: null` switches SMS off and forgets the gateway's key (schema/sms.ts).
 */
export const messengersBody = z.object({
  telegram: z.object({ token: telegramTokenSchema }).nullable().optional(),
  /** The owner's MAX bot, the same as «Уведомления в MAX» (PUT /admin/max); null forgets it. */
  max: maxTokenSchema.nullable().optional(),
  sms: smsSettingsBody.nullable().optional(),
});

/** What the panel is told of the guests' Telegram bot: never the token, only its last 4 characters. */
export const telegramStatusSchema = z.object({
  connected: z.boolean(),
  botUsername: z.string().optional(),
  botName: z.string().optional(),
  last4: z.string().nullable(),
  /** How updates come: by the webhook (SITE_URL set) or read by the schedule (no public address). */
  mode: z.enum(['webhook', 'polling']).optional(),
  /** Telegram's last refusal while reading updates, in words for the owner. */
  error: z.string().optional(),
});
export type TelegramStatus = z.infer<typeof telegramStatusSchema>;
/**
 * What the panel is told of the MAX bot as guests' messenger: `connected` once a token is kept (the
 * guests' button shows then), never the token, only its last 4 characters. The owner's own
 * connection for alerts is GET /admin/max's.
 */
export const maxGuestStatusSchema = z.object({
  connected: z.boolean(),
  botUsername: z.string().optional(),
  botName: z.string().optional(),
  last4: z.string().nullable(),
  mode: z.enum(['webhook', 'polling']).optional(),
});
export const messengersAnswer = z.object({
  telegram: telegramStatusSchema,
  max: maxGuestStatusSchema,
  sms: smsStatusSchema,
});

/** POST /api/guest/{token}/link/telegram: the deep link that opens the bot with the one-time code. */
export const telegramLinkAnswer = z.object({ url: z.string() });

export const telegramDeepLink = (username: string, code: string) =>
  `https://t.me/${encodeURIComponent(username)}?start=${encodeURIComponent(code)}`;

export { TELEGRAM_BUTTON, TELEGRAM_CONSENT_TEXT, TELEGRAM_LINKED_TEXT } from './guest-page-texts.ts';

/** The bot's answers to the guest. */
export const TELEGRAM_REPLIES = {
  linked: 'Готово: сообщения о брони придут сюда.',
  stale: 'Ссылка устарела. Откройте страницу брони и нажмите кнопку ещё раз.',
  bareStart: 'Чтобы получать сообщения о брони, откройте страницу брони и нажмите «Получать сообщения в Telegram».',
  stopped: 'Больше не пишем сюда. Снова подключиться можно на странице брони.',
  other: 'Сюда приходят сообщения о вашей брони. Чтобы отписаться, напишите «стоп».',
} as const;

/** Words that unlink the chat, as a guest would write them. */
export const isStopWord = (text: string) => /^\/?(стоп|stop|отписаться)[.!]?$/i.test(text.trim());

const TELEGRAM_TITLES: Record<GuestMessageKind, string> = {
  confirmation: 'Бронирование подтверждено',
  reminder: 'Скоро заезд',
  review: 'Как вам отдых? Будем рады отзыву',
  refund: 'Оплата по брони возвращена',
  arrival: 'Сегодня заезд. Как добраться и заселиться — на странице брони',
  paylink: 'Ссылка на оплату брони: даты держим за вами, пока вы платите',
};

/**
 * What goes to the guest's Telegram chat for one of the booking's messages: a title, the cabin
 * and the dates, and the link to the guest's page (the review form for a review request). Never
 * the owner's template, which may carry the address or a door code, and never the instructions:
 * the page shows those to whoever holds the link.
 */
export function telegramGuestText(
  kind: GuestMessageKind,
  stay: { cabinName: string; checkIn: string; checkOut: string; guestToken: string },
  origin: string,
): { subject: string; text: string } {
  const link = kind === 'review' ? reviewUrl(origin, stay.guestToken) : guestPageUrl(origin, stay.guestToken);
  const subject = TELEGRAM_TITLES[kind];
  return {
    subject,
    text: `${subject}: «${stay.cabinName}», ${formatStayDates(stay.checkIn, stay.checkOut)}.\n${link}`,
  };
}

// ——— The Bot API's answers, only the fields used here (unknown ones pass).

export const telegramMeSchema = z.looseObject({
  id: z.number(),
  is_bot: z.boolean().optional(),
  first_name: z.string(),
  username: z.string().optional(),
});

export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int(),
  message: z
    .looseObject({
      message_id: z.number().int().optional(),
      chat: z.looseObject({ id: z.number() }),
      text: z.string().optional(),
    })
    .optional(),
});
export type TelegramUpdate = z.infer<typeof telegramUpdateSchema>;
