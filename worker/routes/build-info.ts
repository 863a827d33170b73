import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { getContentVersion } from '../queries/site-state.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Служебное');

/** Read by the site build first, so the built site knows which content version it shows. */
export const buildInfoRoutes = new Hono<AppEnv>().get('/', doc('Версия содержимого (читает сборка сайта)'), async (c) =>
  c.json({ contentVersion: await getContentVersion(c.env) }),
);
