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

/** One update of GET /updates; `bot_started` carries the deep link's payload and who pressed «Начать». */
const maxUpdateSchema = z.looseObject({
  update_type: z.string(),
  chat_id: z.number().nullish(),
  payload: z.string().nullish(),
  user: z.looseObject({ user_id: z.number() }).nullish(),
});

/** GET /updates: a page of updates and the marker of the next one. */
export const maxUpdatesSchema = z.looseObject({
  updates: z.array(maxUpdateSchema),
  marker: z.number().nullish(),
});

export type MaxUpdate = z.infer<typeof maxUpdateSchema>;
