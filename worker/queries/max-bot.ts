import { z } from 'zod';
import { maxStartLink, type MaxStatus } from '../../schema/max.ts';
import type { maxGuestStatusSchema } from '../../schema/telegram.ts';
import {
  chatOf,
  dropChat,
  MAX_GUESTS,
  randomHex,
  takeGuestUpdate,
  type AlertOf,
  type UpdateTaken,
} from './guest-bots.ts';
import { siteRecord } from './site-state.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The owner's MAX bot lives in site_state, not in settings: everything in settings is public
 * (GET /api/settings, the built site), and the token is a secret only the server reads.
 */
const KEY = 'maxBot';

const storedSchema = z.object({
  token: z.string().min(1),
  name: z.string(),
  username: z.string(),
  /** The secret in the bot's start link: whoever opens the bot with it is the owner. */
  payload: z.string(),
  userId: z.number().nullable(),
  chatId: z.number().nullable(),
  connectedAt: z.string().nullable(),
  /**
   * How updates come: posted by MAX to /api/hooks/max/{hookSecret} with `headerSecret` in
   * X-Max-Bot-Api-Secret (SITE_URL is https), or read by long polling (no public address). A bot
   * kept before guests were served reads as polling.
   */
  mode: z.enum(['webhook', 'polling']).default('polling'),
  hookSecret: z.string().nullable().default(null),
  headerSecret: z.string().nullable().default(null),
  /** The address MAX was subscribed to, to take it down by (SITE_URL may have changed since). */
  hookUrl: z.string().nullable().default(null),
});
export type MaxBot = z.infer<typeof storedSchema>;

const record = siteRecord(KEY, storedSchema);
export const readMaxBot = (env: DbEnv): Promise<MaxBot | null> => record.read(env);
/** The bot's row not yet read, for a batch, and what the row reads as. */
export const maxBotRow = { query: record.query, from: record.from };
/** Saves the bot; the fields of the guests' side may be left out (a bot kept before them reads as polling). */
export const saveMaxBot = (env: DbEnv, bot: z.input<typeof storedSchema>): Promise<void> =>
  record.save(env, bot as MaxBot);
export const forgetMaxBot = (env: DbEnv): Promise<void> => record.forget(env);

/** A fresh start-link secret: 24 random bytes in hex (MAX takes up to 128 such characters). */
export const newStartPayload = () => randomHex(24);

/** What the panel may see: whether a token is set (its last 4 characters), never the token. */
export function maxStatus(bot: MaxBot | null): MaxStatus {
  if (!bot)
    return {
      configured: false,
      tokenEnding: null,
      botName: null,
      botUsername: null,
      link: null,
      connected: false,
      connectedAt: null,
    };
  return {
    configured: true,
    // A short token would give too much of itself away in 4 characters.
    tokenEnding: bot.token.length >= 16 ? bot.token.slice(-4) : null,
    botName: bot.name,
    botUsername: bot.username,
    link: maxStartLink(bot.username, bot.payload),
    connected: bot.userId !== null,
    connectedAt: bot.connectedAt,
  };
}

// ——— Guests' dialogs with the bot (docs/api.md «Messengers»).

/**
 * Where polling goes on from: GET /updates's marker, for the bot whose start payload it names (a
 * new token has a new payload and starts over). Apart from the bot, so a poll and the owner's
 * panel never overwrite each other's writes.
 */
const markerRecord = siteRecord('maxUpdatesMarker', z.object({ payload: z.string(), marker: z.number() }));
export async function readMaxMarker(env: DbEnv, bot: MaxBot): Promise<number | undefined> {
  const kept = await markerRecord.read(env);
  return kept?.payload === bot.payload ? kept.marker : undefined;
}
export const saveMaxMarker = (env: DbEnv, bot: MaxBot, marker: number) =>
  markerRecord.save(env, { payload: bot.payload, marker });

/**
 * Takes one update of the bot once (takeGuestUpdate), named by `key` (a message by its `mid`, a
 * «Начать» by its user, time and payload): a second delivery finds it recorded and changes nothing.
 * A guest's dialog is named by their MAX user id.
 */
export const takeMaxUpdate = (
  env: DbEnv,
  key: string,
  act:
    | { start: string; userId: string }
    | { stop: string }
    | { said: { userId: string; mid: string; text: string } }
    | null,
  alertOf?: AlertOf,
): Promise<UpdateTaken> =>
  takeGuestUpdate(
    env,
    MAX_GUESTS,
    {
      params: [key],
      notSeen: 'not exists (select 1 from max_updates u where u.key = ?1)',
      record: 'insert into max_updates (key, received_at) values (?1, ?2) on conflict do nothing returning key',
    },
    !act || 'stop' in act
      ? act
      : 'start' in act
        ? { start: act.start, chatId: act.userId }
        : { said: { chatId: act.said.userId, platformId: act.said.mid, text: act.said.text } },
    alertOf,
  );

/** Forgets the keys of updates taken before `before` (ms): MAX delivers an update again within minutes, not days. */
export async function forgetOldMaxUpdates(env: DbEnv, before: number): Promise<void> {
  await env.DB.prepare('delete from max_updates where received_at < ?1').bind(before).run();
}

/** The MAX user a booking's messages go to, if the guest tied their dialog. */
export const maxUserOf = (env: DbEnv, bookingId: number) => chatOf(env, MAX_GUESTS, bookingId);

/** Unties a dialog the bot can no longer write to (the guest blocked it), so nothing more is tried there. */
export const dropMaxChat = (env: DbEnv, bookingId: number, userId: string) =>
  dropChat(env, MAX_GUESTS, bookingId, userId);

/** The bot as guests' messenger, for GET /admin/messengers: never the token, only its last 4 characters. */
export function maxGuestStatus(bot: MaxBot | null): z.infer<typeof maxGuestStatusSchema> {
  if (!bot) return { connected: false, last4: null };
  return {
    connected: true,
    botUsername: bot.username,
    botName: bot.name,
    last4: bot.token.length >= 16 ? bot.token.slice(-4) : null,
    mode: bot.mode,
  };
}
