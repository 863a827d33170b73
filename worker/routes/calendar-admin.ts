import { Hono } from 'hono';
import {
  blockInputSchema,
  calendarFieldName,
  feedHostKind,
  feedsBodySchema,
  seasonsBodySchema,
} from '../../schema/calendar.ts';
import { MSG } from '../../schema/messages.ts';
import { alertNewConflicts } from '../calendar/conflicts.ts';
import { syncAllFeeds } from '../calendar/sync.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { exportUrl } from '../lib/export-url.ts';
import { maskFeedUrl } from '../lib/feed-url.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getCabin } from '../queries/cabins.ts';
import {
  addBlock,
  deleteBlock,
  getCalendarSettings,
  horizon,
  listBlocks,
  listFeeds,
  listSeasons,
  renewIcalToken,
  replaceFeeds,
  replaceSeasons,
  sourcedBusy,
} from '../queries/calendar.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Календарь');

/** The admin's calendar of a cabin: busy ranges with their sources, blocks, feeds, seasons, export. */
export const calendarAdminRoutes = new Hono<AppEnv>()
  // requireAdmin on each route: a sub-app's own `use` would also cover the other /admin routes (login).
  .get(
    '/cabins/:id/calendar',
    doc('Календарь домика: занятость, блокировки, внешние календари', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      const { from, to } = horizon();
      const settings = await getCalendarSettings(c.env, id);
      // The export address exists from the first look, so the owner can copy it at once.
      const token = settings.icalToken ?? (await renewIcalToken(c.env, id));
      const [busy, blocks, feeds, seasons] = await Promise.all([
        sourcedBusy(c.env, id, from, to),
        listBlocks(c.env, id),
        listFeeds(c.env, id),
        listSeasons(c.env, id),
      ]);
      // Seasons that are over are left out: they price nothing any more, and the list the owner
      // saves back must pass the same rules as any input (no range wholly in the past). An imported
      // calendar's address is the owner's key to that platform: a manager sees it masked.
      const shown = c.get('user')?.role === 'owner' ? feeds : feeds.map((f) => ({ ...f, url: maskFeedUrl(f.url) }));
      return c.json({
        from,
        to,
        exportUrl: exportUrl(c, token),
        minNights: settings.minNights,
        busy,
        blocks,
        feeds: shown,
        seasons: seasons.filter((s) => s.end > from),
      });
    },
  )
  // Seasons and the minimum stay change prices on the public pages («от N ₽»): they publish.
  .put(
    '/cabins/:id/seasons',
    doc('Заменить сезоны и минимальный срок', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', seasonsBodySchema, calendarFieldName),
    publishOnSuccess,
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      const body = c.req.valid('json');
      await replaceSeasons(c.env, id, body.seasons, body.minNights);
      return c.json({
        seasons: await listSeasons(c.env, id),
        minNights: (await getCalendarSettings(c.env, id)).minNights,
      });
    },
  )
  // Blocks and feeds change only free dates, which the booking card reads live: no rebuild.
  .post(
    '/cabins/:id/blocks',
    doc('Закрыть даты', { admin: true, status: 201, errors: [404, 409] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', blockInputSchema, calendarFieldName),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      return c.json(await addBlock(c.env, id, c.req.valid('json')), 201);
    },
  )
  .delete(
    '/blocks/:id',
    doc('Открыть закрытые даты', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      if (!(await deleteBlock(c.env, c.req.valid('param').id))) return apiError(c, 404, MSG.blockNotFound);
      return c.json({ success: true });
    },
  )
  .put(
    '/cabins/:id/feeds',
    doc('Заменить внешние календари (iCal) домика', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', feedsBodySchema, calendarFieldName),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      const { feeds } = c.req.valid('json');
      const allowLoopback = c.env.ALLOW_LOOPBACK_FEEDS === '1';
      for (const [i, f] of feeds.entries()) {
        const kind = feedHostKind(new URL(f.url).hostname);
        if (kind === 'internal' || (kind === 'loopback' && !allowLoopback))
          return c.json({ error: `${calendarFieldName(['feeds', i, 'url'])}: ${MSG.feedUrlInternal}` }, 400);
      }
      return c.json({ feeds: await replaceFeeds(c.env, id, feeds) });
    },
  )
  // The feeds read now; an import that lands on nights taken here alerts the owner at once.
  .post('/calendar-sync', doc('Загрузить внешние календари сейчас', { admin: true }), requireAdmin, async (c) => {
    const results = await syncAllFeeds(c.env);
    await alertNewConflicts(c.env);
    return c.json({ results });
  })
  .post(
    '/cabins/:id/ical-token',
    doc('Новый секретный адрес выгрузки iCal', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      return c.json({ exportUrl: exportUrl(c, await renewIcalToken(c.env, id)) });
    },
  );
