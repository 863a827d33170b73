// IndexNow: after each publish the schedule tells search engines (Yandex by default) which public
// addresses changed (worker/indexnow/). What «Продвижение» shows of it is the answer below.
import { z } from 'zod';

/** Where the addresses go unless INDEXNOW_URL says otherwise. */
export const INDEXNOW_DEFAULT_URL = 'https://yandex.com/indexnow';

/** The protocol's limit of addresses in one request; a larger change goes as several. */
export const INDEXNOW_MAX_URLS = 10_000;

/** The outbox channel of a list of addresses to send. */
export const INDEXNOW_CHANNEL = 'indexnow';

/** Why IndexNow is off, for the owner. */
export const INDEXNOW_OFF_NO_DOMAIN =
  'Включится, когда у сайта будет свой домен: укажите SITE_URL с https:// (например https://kaspiy.ru)';

/** GET /api/admin/indexnow. */
export const indexNowStatusAnswer = z.object({
  on: z.boolean(),
  /** Why it is off (Russian), when it is. */
  why: z.string().optional(),
  /** The key ('' until the server makes one, which it does once IndexNow is on). */
  key: z.string(),
  /** Where the site serves the key file, once on. */
  keyUrl: z.string().optional(),
  /** When the search engine last took a list (ISO), and how many addresses it held. */
  lastSentAt: z.string().optional(),
  lastUrls: z.number().int().optional(),
  /** Addresses waiting to be sent (tried again after a refusal to wait, or not yet tried). */
  pending: z.number().int(),
  /** The last refusal that was not followed by a send, in Russian, with what to do. */
  error: z.string().optional(),
});
export type IndexNowStatus = z.infer<typeof indexNowStatusAnswer>;
