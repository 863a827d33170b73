import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import { exportCalendar } from '../calendar/ical.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { cabinByIcalToken, exportVersion, horizon, sourcedBusy } from '../queries/calendar.ts';
import { addDays } from '../../schema/dates.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Календарь');

const FILE = /^([a-f0-9]{48})\.ics$/;

/** RFC 9110: If-None-Match wins when sent; else If-Modified-Since at or after the last change (to the second). */
function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  etag: string,
  changedAt: string,
): boolean {
  if (ifNoneMatch !== undefined)
    return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(Date.parse(changedAt) / 1000) <= Math.floor(since / 1000);
}

/**
 * A cabin's busy nights as iCal, at a secret address the owner pastes into Sutochno, Avito,
 * RealtyCalendar or Google. Only the owner's own busy nights (confirmed bookings, holds being
 * paid for, and blocks):
 * imported events are left out, so two platforms never echo each other's bookings.
 * HEAD is answered by the same handler (Hono).
 */
export const icalRoutes = new Hono<AppEnv>().get(
  '/:file',
  doc('Выгрузка занятости домика в iCal ({токен}.ics)', {
    answer: { description: 'Календарь iCal', media: 'text/calendar' },
    errors: [404],
  }),
  async (c) => {
    const token = FILE.exec(c.req.param('file'))?.[1];
    const cabinId = token ? await cabinByIcalToken(c.env, token) : undefined;
    if (!cabinId) return apiError(c, 404, MSG.notFound);
    const { from, to } = horizon();
    // A stay that began a month ago may still be running elsewhere: keep recent ones in.
    const own = (await sourcedBusy(c.env, cabinId, addDays(from, -31), to)).filter((r) => r.source !== 'feed');
    // No guest's name: the event says only «Занято»; its UID stays the same across exports, and
    // a hold being paid for keeps its booking's UID once paid, so the platforms see one event.
    const uid = (r: (typeof own)[number]) => `${r.source === 'hold' ? 'booking' : r.source}-${r.id}@kaspiy`;
    const events = own.map((r) => ({ uid: uid(r), start: r.start, end: r.end }));
    // The same nights answer with the same ETag and Last-Modified (the moment they last changed), so
    // a platform that reads every few minutes gets a 304 until something changes.
    const { hash, changedAt } = await exportVersion(c.env, cabinId, events);
    const etag = `"${hash}"`;
    const lastModified = new Date(changedAt).toUTCString();
    c.header('cache-control', 'private, max-age=300');
    c.header('etag', etag);
    c.header('last-modified', lastModified);
    if (notModified(c.req.header('if-none-match'), c.req.header('if-modified-since'), etag, changedAt))
      return c.body(null, 304);
    return c.body(exportCalendar(events, Date.parse(changedAt)), 200, {
      'content-type': 'text/calendar; charset=utf-8',
    });
  },
);
