import { z } from 'zod';
import { MSG } from './messages.ts';

// Owner alerts through MAX, by its Bot API (dev.max.ru/docs-api).

/** The Bot API's host since 2025 (platform-api.max.ru before); env MAX_API_URL overrides it. */
export const MAX_API_DEFAULT = 'https://platform-api2.max.ru';
/** Seconds «Проверить подключение» long-polls GET /updates for the owner's «Начать». */
export const MAX_CHECK_WAIT_S = 3;
/** Pages of updates one check reads at most (100 each), so a busy bot cannot hold the request. */
export const MAX_CHECK_PAGES = 5;
/** The most text MAX takes in one message. */
export const MAX_TEXT_LIMIT = 4000;
/** The update kinds the bot reads: the owner's and the guests' «Начать», and what guests write. */
export const MAX_UPDATE_TYPES = ['bot_started', 'message_created'] as const;

/**
 * The bot's token as the owner pastes it. It travels in the Authorization header, so it must
 * be one line of printable ASCII.
 */
export const maxTokenSchema = z.object({
  token: z
    .string({ error: MSG.maxTokenRequired })
    .trim()
    .min(1, MSG.maxTokenRequired)
    .max(512, MSG.maxTokenInvalid)
    .regex(/^[\x21-\x7e]+$/, MSG.maxTokenInvalid),
});

/** What the panel is told about MAX alerts; never the token itself. */
export type MaxStatus = {
  /** A token is stored. */
  configured: boolean;
  /** The token's last 4 characters, so the owner can tell which one is set. */
  tokenEnding: string | null;
  botName: string | null;
  botUsername: string | null;
  /** `https://max.ru/<bot>?start=<secret>`: opening it and pressing «Начать» connects the owner. */
  link: string | null;
  /** The owner's MAX account is known: alerts go there. */
  connected: boolean;
  connectedAt: string | null;
};

/** A link that opens the bot and hands it the payload with the owner's «Начать». */
export const maxStartLink = (username: string, payload: string) =>
  `https://max.ru/${encodeURIComponent(username)}?start=${encodeURIComponent(payload)}`;

// ——— MAX's answers, only the fields used here (unknown ones pass).

/** GET /me: the bot itself. */
export const maxMeSchema = z.looseObject({
  user_id: z.number(),
  name: z.string().nullish(),
  first_name: z.string().nullish(),
  username: z.string().nullish(),
});

/**
 * One update of GET /updates, or of the webhook: `bot_started` carries the deep link's payload and
 * who pressed «Начать»; `message_created` a message, with its sender and its `mid`, MAX's id of it.
 */
export const maxUpdateSchema = z.looseObject({
  update_type: z.string(),
  timestamp: z.number().nullish(),
  chat_id: z.number().nullish(),
  payload: z.string().nullish(),
  user: z.looseObject({ user_id: z.number() }).nullish(),
  message: z
    .looseObject({
      sender: z.looseObject({ user_id: z.number(), is_bot: z.boolean().nullish() }).nullish(),
      recipient: z.looseObject({ chat_id: z.number().nullish(), user_id: z.number().nullish() }).nullish(),
      body: z.looseObject({ mid: z.string(), text: z.string().nullish() }),
    })
    .nullish(),
});

/** GET /updates: a page of updates and the marker of the next one. */
export const maxUpdatesSchema = z.looseObject({
  updates: z.array(maxUpdateSchema),
  marker: z.number().nullish(),
});

export type MaxUpdate = z.infer<typeof maxUpdateSchema>;

// ——— Guests' messages through the same bot (docs/api.md «Messengers»): the guest taps «Получать
// сообщения в MAX» on their page, opens the bot by a one-time link (the code is the «Начать»'s
// payload), and from then on every automatic message of that booking also goes to that dialog, as
// a short text with the link to the page (schema/telegram.ts telegramGuestText): never the address,
// a door code or the Wi-Fi.

/** POST /api/guest/{token}/link/max: the link that opens the bot with the one-time code. */
export const maxLinkAnswer = z.object({ url: z.string() });

export { MAX_BUTTON, MAX_CONSENT_TEXT, MAX_LINKED_TEXT } from './guest-page-texts.ts';

/** The bot's answers to a guest. */
export const MAX_REPLIES = {
  linked: 'Готово: сообщения о брони придут сюда.',
  stale: 'Ссылка устарела. Откройте страницу брони и нажмите кнопку ещё раз.',
  bareStart: 'Чтобы получать сообщения о брони, откройте страницу брони и нажмите «Получать сообщения в MAX».',
  stopped: 'Больше не пишем сюда. Снова подключиться можно на странице брони.',
  other: 'Сюда приходят сообщения о вашей брони. Чтобы отписаться, напишите «стоп».',
} as const;
