import { Hono } from 'hono';
import { todayInMoscow } from '../../schema/dates.ts';
import { beaconSchema, countedPath, visitSource } from '../../schema/visits.ts';
import type { AppEnv } from '../env.ts';
import { clientAddressKey } from '../lib/client-ip.ts';
import { forLog } from '../lib/for-log.ts';
import { docs } from '../lib/openapi.ts';
import { beaconAllowed, countBeacon, DROPPED_KIND, VISIT_KIND } from '../queries/visits.ts';

const doc = docs('Посещения');

/** A beacon is a few hundred bytes; a longer body is not one. */
const BEACON_MAX_BYTES = 4096;

/**
 * POST /api/beacon: the public pages count their views, searches, cards opened, dates chosen,
 * requests and payments here (navigator.sendBeacon, after the page has loaded). Always 204 and
 * never a cookie: a bad beacon, or one over its sender's limit, is dropped and counted as
 * dropped. A guest's own page and any query (a token) are never stored.
 */
export const beaconRoutes = new Hono<AppEnv>().post(
  '/',
  doc('Отметка посещения: страница, поиск, карточка, даты, заявка, оплата', {
    status: 204,
    description:
      'Всегда 204, без cookie. Тело: JSON `{ kind, path, ref?, utm?, landing?, cabinId? }`. Неверная отметка или сверх предела с одного адреса (60 в минуту) отбрасывается и считается как отброшенная. Страница гостя `/b/…` и параметры адреса не сохраняются.',
    body: { media: 'application/json', schema: beaconSchema },
  }),
  async (c) => {
    const day = todayInMoscow();
    try {
      const beacon = beaconSchema.safeParse(await readSmallJson(c.req.raw));
      const path = beacon.success ? countedPath(beacon.data.path) : undefined;
      if (!beacon.success || path === undefined || !(await beaconAllowed(c.env, clientAddressKey(c)))) {
        await countBeacon(c.env, { day, kind: DROPPED_KIND, source: '-', path: '-' });
      } else {
        const b = beacon.data;
        const source = visitSource(b.utm, b.ref, new URL(c.req.url).hostname);
        // The first page of a visit counts as the visit; the views after it as its pages.
        const kind = b.kind === 'view' && b.landing ? VISIT_KIND : b.kind;
        await countBeacon(c.env, { day, kind, source, path, cabinId: b.cabinId });
      }
    } catch (err) {
      // A beacon that could not be counted is lost, as a dropped one is: the page never waits on it.
      console.error('A visit beacon was not counted', forLog(err));
    }
    return c.body(null, 204);
  },
);

async function readSmallJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > BEACON_MAX_BYTES) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
