import { Hono } from 'hono';
import { z } from 'zod';
import { FEED_EMPTY_HELD } from '../../schema/calendar.ts';
import {
  avitoConnectSchema,
  cabinChannelsSchema,
  channelFieldName,
  type ChannelsAnswer,
} from '../../schema/channels.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { alertNewConflicts, findConflicts } from '../calendar/conflicts.ts';
import { syncAllFeeds } from '../calendar/sync.ts';
import { afterResponse } from '../lib/background.ts';
import { readAvitoChats } from '../channels/avito-chats.ts';
import { checkAvitoItem, connectAvito, pullAvito, pushAvito } from '../channels/avito-sync.ts';
import type { AppEnv } from '../env.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { exportUrl } from '../lib/export-url.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getCabin, listCabins } from '../queries/cabins.ts';
import { listFeeds, renewIcalToken, storeImport, icalTokens } from '../queries/calendar.ts';
import {
  cabinOfItem,
  deleteAvitoAccount,
  getAvitoAccount,
  listChannelStays,
  listLinks,
  setAvitoItem,
} from '../queries/channels.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Площадки');

/** Manual syncs answer the owner who waits for them: each call to Avito gets less time than the schedule's. */
const MANUAL_TIMEOUT_MS = 10_000;

const feedParam = z.object({
  cabinId: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, MSG.badId)
    .transform(Number),
  index: z
    .string()
    .regex(/^\d{1,2}$/, MSG.badId)
    .transform(Number),
});

/**
 * «Календарь» → «Площадки» (docs/api.md «Channels»): every cabin against every channel (Avito
 * through its API, each iCal feed, our export) with when each last worked and why not; Avito's
 * keys and each cabin's listing; «Синхронизировать сейчас»; the conflicts between stays.
 */
export const channelRoutes = new Hono<AppEnv>()
  .get('/channels', doc('Авито и календари площадок: состояние', { admin: true }), requireAdmin, async (c) => {
    const [account, cabins, links, feeds, tokens] = await Promise.all([
      getAvitoAccount(c.env),
      listCabins(c.env, { includeInactive: true }),
      listLinks(c.env),
      listFeeds(c.env),
      icalTokens(c.env),
    ]);
    // Every cabin has its export address from the first look, so the owner can copy it here.
    for (const cabin of cabins) if (!tokens.has(cabin.id)) tokens.set(cabin.id, await renewIcalToken(c.env, cabin.id));
    const answer: ChannelsAnswer = {
      avito: {
        connected: !!account,
        userId: account?.userId ?? null,
        clientId: account?.clientId ?? null,
        secretEnding: account ? account.clientSecret.slice(-4) : null,
        ...(account?.lastError ? { error: account.lastError } : {}),
        ...(account
          ? {
              chats: {
                ...(account.chatsRefused ? { refused: account.chatsRefused } : {}),
                ...(account.chatsError ? { error: account.chatsError } : {}),
                webhook: !!account.hookUrl,
              },
            }
          : {}),
      },
      cabins: cabins.map((cabin) => {
        const link = links.find((l) => l.cabinId === cabin.id);
        return {
          id: cabin.id,
          name: cabin.name,
          active: cabin.active,
          avitoItemId: link?.avitoItemId ?? null,
          avito: {
            ...(link?.lastPushAt ? { lastPushAt: link.lastPushAt } : {}),
            ...(link?.lastPullAt ? { lastPullAt: link.lastPullAt } : {}),
            ...(link?.lastError ? { error: link.lastError } : {}),
          },
          feeds: feeds
            .filter((f) => f.cabinId === cabin.id)
            .map((f, index) => ({
              index,
              name: f.name,
              ...(f.lastSyncAt ? { lastSyncAt: f.lastSyncAt } : {}),
              ...(f.lastSuccessAt ? { lastSuccessAt: f.lastSuccessAt } : {}),
              ...(f.lastError ? { error: f.lastError } : {}),
              emptyHeld: f.lastError === FEED_EMPTY_HELD,
            })),
          exportUrl: exportUrl(c, tokens.get(cabin.id)!),
        };
      }),
    };
    return c.json(answer);
  })
  // Nothing is stored unless Avito gave a token for the keys.
  .put(
    '/channels/avito',
    doc('Подключить Авито', { admin: true, errors: [502] }),
    requireAdmin,
    jsonBody,
    validate('json', avitoConnectSchema, channelFieldName),
    async (c) => {
      const result = await connectAvito(c.env, c.req.valid('json'));
      if (!result.ok) return apiError(c, result.status, result.error);
      // The account's chats at once (and Avito's webhook asked for), rather than at the next minute.
      const share = c.env.SUBREQUESTS_PER_RUN ? Math.max(1, Math.floor(c.env.SUBREQUESTS_PER_RUN / 4)) : undefined;
      afterResponse(c, 'Reading Avito’s chats', readAvitoChats(c.env, { now: true, limit: share }));
      return c.json({ success: true });
    },
  )
  .delete('/channels/avito', doc('Отключить Авито', { admin: true }), requireAdmin, async (c) => {
    await deleteAvitoAccount(c.env);
    return c.json({ success: true });
  })
  // A listing is linked only once Avito confirmed it is the owner's; then its nights and prices go at once.
  .put(
    '/cabins/:id/channels',
    doc('Связать домик с объявлением Авито', { admin: true, errors: [404, 409] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', cabinChannelsSchema, channelFieldName),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      const { avitoItemId } = c.req.valid('json');
      if (avitoItemId !== null) {
        if (!(await getAvitoAccount(c.env))) return apiError(c, 409, MSG.avitoNotConnected);
        const other = await cabinOfItem(c.env, avitoItemId);
        if (other !== undefined && other !== id) return apiError(c, 409, MSG.avitoItemTaken);
        const checked = await checkAvitoItem(c.env, avitoItemId);
        if (!checked.ok) return apiError(c, checked.status, checked.error);
      }
      await setAvitoItem(c.env, id, avitoItemId);
      if (avitoItemId === null) return c.json({ avitoItemId, results: [] });
      const results = [
        ...(await pullAvito(c.env, { cabinId: id, now: true, timeoutMs: MANUAL_TIMEOUT_MS })),
        ...(await pushAvito(c.env, { cabinId: id, now: true, timeoutMs: MANUAL_TIMEOUT_MS })),
      ];
      return c.json({ avitoItemId, results });
    },
  )
  // «Синхронизировать сейчас»: Avito read and sent, every feed read, conflicts found; each result answered.
  .post('/channels/sync', doc('Синхронизировать площадки сейчас', { admin: true }), requireAdmin, async (c) => {
    // A Worker's request has a budget of outbound requests (SUBREQUESTS_PER_RUN, as the schedule's):
    // the listings waiting longest are read and sent now, up to a third of it each; the rest follow
    // with the schedule within minutes, and the answer says how many. The Node server has no limit.
    const third = c.env.SUBREQUESTS_PER_RUN ? Math.max(1, Math.floor(c.env.SUBREQUESTS_PER_RUN / 3)) : undefined;
    const [pulled, feeds, links] = await Promise.all([
      pullAvito(c.env, { now: true, timeoutMs: MANUAL_TIMEOUT_MS, limit: third }),
      syncAllFeeds(c.env),
      listLinks(c.env),
    ]);
    const pushed = await pushAvito(c.env, { now: true, timeoutMs: MANUAL_TIMEOUT_MS, limit: third });
    const conflicts = (await alertNewConflicts(c.env)).map(({ key: _key, ...conflict }) => conflict);
    const later = third === undefined ? 0 : Math.max(0, links.length - pulled.length);
    return c.json({ avito: [...pulled, ...pushed], feeds, conflicts, later });
  })
  .get('/conflicts', doc('Пересечения броней разных площадок', { admin: true }), requireAdmin, async (c) =>
    c.json((await findConflicts(c.env)).map(({ key: _key, ...conflict }) => conflict)),
  )
  // What Avito's API gave, for «Заявки»: stays not yet over.
  .get('/channels/stays', doc('Брони с Авито, ещё не закончившиеся', { admin: true }), requireAdmin, async (c) =>
    c.json(await listChannelStays(c.env, todayInMoscow(now()))),
  )
  // The owner accepts that a feed held empty really is empty: its nights are freed now.
  .post(
    '/feeds/:cabinId/:index/accept-empty',
    doc('Принять опустевший внешний календарь', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', feedParam),
    async (c) => {
      const { cabinId, index } = c.req.valid('param');
      const feed = (await listFeeds(c.env, cabinId))[index];
      if (!feed) return apiError(c, 404, MSG.feedNotFound);
      if (feed.lastError !== FEED_EMPTY_HELD) return apiError(c, 409, MSG.feedNotHeld);
      await storeImport(c.env, feed, []);
      return c.json({ success: true });
    },
  );
