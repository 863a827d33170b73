import { describe, expect, it } from 'vitest';
import { HOME_REVIEW_COUNT, RATING_MAX } from '../../schema/constants.ts';
import { pickRandomReviews, SAMPLE_REVIEWS } from '../../site/lib/reviews-pick.ts';
import { seededRandom } from '../../site/lib/seeded-random.ts';
import { formatDate } from '../../schema/format.ts';

const review = (id: number, approved = true) => ({ id, approved, name: `Гость ${id}` });

const seeded = seededRandom;

describe('pickRandomReviews', () => {
  const ten = Array.from({ length: 10 }, (_, i) => review(i + 1));

  it('should pick 3 different reviews', () => {
    expect(HOME_REVIEW_COUNT).toBe(3);
    for (let seed = 1; seed <= 200; seed++) {
      const picked = pickRandomReviews(ten, seeded(seed));
      expect(picked).toHaveLength(3);
      expect(new Set(picked.map((r) => r.id)).size).toBe(3);
    }
  });

  it('should pick only approved reviews', () => {
    const mixed = [review(1, false), review(2), review(3, false), review(4), review(5, false), review(6)];
    for (let seed = 1; seed <= 50; seed++) {
      expect(
        pickRandomReviews(mixed, seeded(seed))
          .map((r) => r.id)
          .sort(),
      ).toEqual([2, 4, 6]);
    }
  });

  it('should return fewer when fewer approved reviews exist', () => {
    expect(
      pickRandomReviews([review(1), review(2, false), review(3)], seeded(1))
        .map((r) => r.id)
        .sort(),
    ).toEqual([1, 3]);
    expect(pickRandomReviews([review(1, false)], seeded(1))).toEqual([]);
    expect(pickRandomReviews([], seeded(1))).toEqual([]);
  });

  it('should follow the injected random function', () => {
    expect(pickRandomReviews(ten, () => 0).map((r) => r.id)).toEqual([1, 2, 3]);
    // The largest value swaps in the last remaining slot each time: 10, then the 1 and 2
    // that the earlier swaps moved there.
    expect(pickRandomReviews(ten, () => 0.999999).map((r) => r.id)).toEqual([10, 1, 2]);
    expect(pickRandomReviews(ten, () => 1).map((r) => r.id)).toEqual([10, 1, 2]);
  });

  it('should give every review a chance to be picked', () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 300; seed++) for (const r of pickRandomReviews(ten, seeded(seed))) seen.add(r.id);
    expect(seen.size).toBe(10);
  });

  it('should not change the input list', () => {
    const copy = ten.map((r) => ({ ...r }));
    pickRandomReviews(ten, seeded(3));
    expect(ten).toEqual(copy);
  });
});

describe('SAMPLE_REVIEWS', () => {
  it('should hold 3 approved Russian reviews with valid fields', () => {
    expect(SAMPLE_REVIEWS).toHaveLength(HOME_REVIEW_COUNT);
    for (const r of SAMPLE_REVIEWS) {
      expect(r.approved).toBe(true);
      expect(r.rating).toBeGreaterThanOrEqual(1);
      expect(r.rating).toBeLessThanOrEqual(RATING_MAX);
      expect(r.name).toMatch(/^[А-ЯЁ][а-яё]+$/);
      expect(r.comment).toMatch(/[а-яё]{4,}/);
      expect(formatDate(r.created_at)).not.toBe('');
      expect(r).not.toHaveProperty('email');
    }
  });

  it('should use ids that never collide with stored reviews', () => {
    const ids = SAMPLE_REVIEWS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toBeLessThan(1);
  });

  it('should be pickable like loaded reviews', () => {
    expect(pickRandomReviews(SAMPLE_REVIEWS, seeded(1))).toHaveLength(3);
  });
});
