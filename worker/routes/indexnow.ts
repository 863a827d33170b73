import { Hono } from 'hono';
import { indexNowStatusAnswer, type IndexNowStatus } from '../../schema/indexnow.ts';
import type { AppEnv } from '../env.ts';
import { ensureIndexNowKey, indexNowSite } from '../indexnow/site.ts';
import { docs } from '../lib/openapi.ts';
import { requireAdmin } from '../middleware/session.ts';
import { indexNowOutbox, readIndexNowState } from '../queries/indexnow.ts';
import { getSettings } from '../queries/settings.ts';

const doc = docs('Продвижение');

/**
 * «Продвижение» → IndexNow (the owner's): whether the site tells search engines of its changed
 * pages, the key file, the last list sent and the last refusal with what to do. Reading it once
 * IndexNow is on makes the key, as the schedule would.
 */
export const indexNowRoutes = new Hono<AppEnv>().get(
  '/indexnow',
  doc('IndexNow: включён ли, ключ, последняя отправка', { admin: true, answer: indexNowStatusAnswer }),
  requireAdmin,
  async (c) => {
    const site = indexNowSite(c.env);
    const [key, state, outbox] = await Promise.all([
      site.on ? ensureIndexNowKey(c.env) : getSettings(c.env).then((s) => s.promotion.indexNowKey),
      readIndexNowState(c.env),
      indexNowOutbox(c.env),
    ]);
    const status: IndexNowStatus = {
      on: site.on,
      ...(site.on ? {} : { why: site.why }),
      key,
      ...(site.on && key ? { keyUrl: `${site.origin}/${key}.txt` } : {}),
      ...(state?.sentAt != null
        ? { lastSentAt: new Date(state.sentAt).toISOString(), lastUrls: state.sentUrls ?? 0 }
        : {}),
      pending: outbox.pending,
      ...(outbox.error ? { error: outbox.error } : {}),
    };
    return c.json(status);
  },
);
