import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { forLog } from '../lib/for-log.ts';
import { readLiveBuild } from '../lib/live-build.ts';
import { getContentVersion } from '../queries/site-state.ts';
import { docs } from '../lib/openapi.ts';
import { healthAnswer, healthDownAnswer } from '../../schema/answers.ts';

const doc = docs('Служебное');

/**
 * GET /api/health, for uptime monitors and the deploy kit: 200 only when the database answers
 * and a built site is served that is not left behind by a failed build; 503 with the reason
 * otherwise. A site merely being rebuilt after an edit is healthy: the previous one serves.
 */
export const healthRoutes = new Hono<AppEnv>().get(
  '/',
  doc('Здоровье: база отвечает, сайт собран', { answer: healthAnswer, other: { 503: healthDownAnswer } }),
  async (c) => {
    c.header('cache-control', 'no-store');
    let contentVersion: number;
    try {
      contentVersion = await getContentVersion(c.env);
    } catch (err) {
      console.error('Health check: the database did not answer', forLog(err));
      return c.json({ ok: false as const, error: MSG.healthDatabase }, 503);
    }
    const live = await readLiveBuild(c.env, c.req.url);
    if (!live) return c.json({ ok: false as const, error: MSG.healthNoSite }, 503);
    const builder = await c.env.REBUILD?.status().catch(() => null);
    if (builder?.state === 'failed' && live.contentVersion < contentVersion) {
      return c.json({ ok: false as const, error: MSG.healthBuildFailed }, 503);
    }
    return c.json({ ok: true as const, contentVersion: live.contentVersion, builtAt: live.builtAt }, 200);
  },
);
