import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { ICAL_CORPUS, readCorpusFile } from '../fixtures/ical/corpus.ts';
import { mergeRanges } from '../../worker/queries/calendar.ts';
import { jsonRequest, login, resetDataWithAdmin, seedCabin, answerOf, client } from './helpers.ts';

// The iCal corpus (test/fixtures/ical/corpus.ts: the shapes Airbnb, Booking.com, VRBO, Google,
// Yandex, Outlook, Avito, Суточно and RealtyCalendar export) through the whole app on both
// runtimes: each feed served on 127.0.0.1, imported by «Синхронизировать сейчас», and its nights
// busy on the public calendar exactly as a person reading the feed expects. The clock stands at
// each case's window, as if the feed were read that day.

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

const feedsUrl = inject('feedsUrl');

describe('iCal corpus, imported through the app', () => {
  it.each(ICAL_CORPUS.map((c) => [`${c.platform} (${c.file}, from ${c.from})`, c] as const))(
    'should make busy the nights a person expects from %s',
    async (_, c) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      // Noon in Moscow on the window's first day.
      vi.setSystemTime(new Date(`${c.from}T09:00:00Z`));
      const name = `corpus-${crypto.randomUUID()}.ics`;
      expect(
        (
          await fetch(`${feedsUrl}/_feeds/${name}`, {
            method: 'PUT',
            body: JSON.stringify({ body: readCorpusFile(c.file) }),
          })
        ).status,
      ).toBe(204);
      const cookie = await login();
      const cabin = await seedCabin();
      expect(
        (
          await jsonRequest(
            'PUT',
            `/api/admin/cabins/${cabin.id}/feeds`,
            { feeds: [{ name: c.platform, url: `${feedsUrl}/${name}` }] },
            { cookie },
          )
        ).status,
      ).toBe(200);
      const sync = await answerOf(await client({ cookie }).api.admin['calendar-sync'].$post(), 200);
      expect(sync.results).toMatchObject([{ ok: true, error: null }]);
      const { busy } = await answerOf(
        await client().api.cabins[':id'].availability.$get({ param: { id: String(cabin.id) } }),
        200,
      );
      // The public calendar merges touching ranges and looks 12 months ahead: compared within the case's window.
      expect(mergeRanges(busy, c.from, c.to)).toEqual(mergeRanges(c.expected, c.from, c.to));
    },
  );
});
