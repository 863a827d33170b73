import { Hono, type TypedResponse } from 'hono';
import { searchQuerySchema, type SearchAnswerJson } from '../../schema/search.ts';
import type { AppEnv } from '../env.ts';
import { validate } from '../lib/validate.ts';
import { searchAnswerBytes, searchStays } from '../queries/search.ts';
import { docs } from '../lib/openapi.ts';
import { searchAnswer } from '../../schema/answers.ts';

const doc = docs('Поиск');

/**
 * Every cabin free for the visitor's dates and guests, read live (docs/api.md «Search, occupancy
 * and health»): a cabin made inactive or a night taken shows at once. Cached a minute, as the
 * availability of one cabin. Each distinct list of price lines is written once, in `lineSets`,
 * and a result names its list by index (SearchAnswerJson; worker/queries/search.ts writes the bytes).
 */
export const searchRoutes = new Hono<AppEnv>().get(
  '/',
  doc('Свободные домики на даты и число гостей', { answer: searchAnswer }),
  validate('query', searchQuerySchema),
  async (c) => {
    const answer = await searchStays(c.env, c.req.valid('query'));
    c.header('cache-control', 'public, max-age=60');
    return c.body(searchAnswerBytes(answer), 200, { 'content-type': 'application/json' }) as unknown as Response &
      TypedResponse<SearchAnswerJson, 200, 'json'>;
  },
);
