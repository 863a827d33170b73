import { z } from 'zod';
import { maxStartLink, type MaxStatus } from '../../schema/max.ts';
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
});
export type MaxBot = z.infer<typeof storedSchema>;

const record = siteRecord(KEY, storedSchema);
export const readMaxBot = (env: DbEnv): Promise<MaxBot | null> => record.read(env);
export const saveMaxBot = (env: DbEnv, bot: MaxBot): Promise<void> => record.save(env, bot);
export const forgetMaxBot = (env: DbEnv): Promise<void> => record.forget(env);

/** A fresh start-link secret: 24 random bytes in hex (MAX takes up to 128 such characters). */
export const newStartPayload = () =>
  [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, '0')).join('');

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
