// The home page's three random approved reviews, and the built-in samples shown when the
// reviews fail to load.
import { HOME_REVIEW_COUNT } from '../../schema/constants.ts';
import type { Review } from '../../schema/tables.ts';
import type { RandomFn } from './captcha.ts';

/** A review as the public API gives it: never the author's e-mail. */
export type PublicReview = Omit<Review, 'email' | 'bookingId'>;

/**
 * Up to `count` (3) different approved reviews in random order; all of them, shuffled, when
 * there are fewer. Reviews whose `approved` is not true are skipped. The input is not changed.
 */
export function pickRandomReviews<T extends { approved: boolean }>(
  reviews: readonly T[],
  random: RandomFn = Math.random,
  count: number = HOME_REVIEW_COUNT,
): T[] {
  const pool = reviews.filter((r) => r.approved === true);
  const take = Math.max(0, Math.min(count, pool.length));
  // Partial Fisher–Yates: the first `take` slots become a uniform random sample.
  for (let i = 0; i < take; i++) {
    const j = i + Math.min(pool.length - i - 1, Math.floor(random() * (pool.length - i)));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, take);
}

/** Shown on the home page when the reviews cannot be loaded. Ids are negative: never in the database. */
export const SAMPLE_REVIEWS: readonly PublicReview[] = [
  {
    id: -1,
    name: 'Анна',
    rating: 5,
    comment:
      'Отдыхали семьёй в августе. Домик чистый и уютный, до моря пять минут пешком, вечером жарили шашлык на террасе. Хозяева встретили и всё показали. Обязательно приедем ещё!',
    approved: true,
    created_at: '2025-08-24T12:00:00.000Z',
    verifiedStay: false,
  },
  {
    id: -2,
    name: 'Магомед',
    rating: 5,
    comment:
      'Снимали апартаменты на неделю. Тихо, есть кондиционер и всё нужное на кухне, рядом магазин. Цена честная, без доплат. Рекомендую.',
    approved: true,
    created_at: '2025-07-12T12:00:00.000Z',
    verifiedStay: false,
  },
  {
    id: -3,
    name: 'Елена',
    rating: 4,
    comment:
      'Хорошее место для спокойного отдыха у моря: утром слышно волны, пляж чистый. Wi-Fi иногда подводил, но хозяин быстро помог. В целом очень довольны.',
    approved: true,
    created_at: '2025-06-30T12:00:00.000Z',
    verifiedStay: false,
  },
];
