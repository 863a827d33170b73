import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { REVIEW_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { Review } from '../../schema/tables.ts';
import app from '../../worker/index.ts';
import { hit, hits } from '../../worker/queries/rate-limit.ts';
import { getContentVersion } from '../../worker/queries/site-state.ts';
import {
  deleteReview,
  listAllReviews,
  listApprovedReviews,
  submitReview,
  updateReview,
} from '../../worker/queries/reviews.ts';
import {
  client,
  expectError,
  expectNoChange,
  freshIp,
  jsonRequest,
  ORIGIN,
  login,
  resetDataWithAdmin,
  seedReview,
  send,
  validReview,
  answerOf,
} from './helpers.ts';

beforeEach(resetDataWithAdmin);

describe('review queries', () => {
  it('should store a submitted review as awaiting moderation', async () => {
    const review = await submitReview(env, { ...validReview(), consent: true });
    expect(review).toMatchObject({ name: 'Иван', email: 'ivan@example.ru', rating: 4, approved: false });
    expect(new Date(review.created_at).toISOString()).toBe(review.created_at);
    expect(await listApprovedReviews(env)).toEqual([]);
    expect(await listAllReviews(env)).toEqual([review]);
  });

  it('should list approved reviews only, newest first, without e-mail', async () => {
    const old = await seedReview({ name: 'Старый', approved: true });
    await seedReview({ name: 'Ждёт' });
    // created_at has millisecond resolution; make the order unambiguous.
    await env.DB.prepare("UPDATE reviews SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").bind(old.id).run();
    const fresh = await seedReview({ name: 'Новый', approved: true });
    const list = await listApprovedReviews(env);
    expect(list.map((r) => r.name)).toEqual(['Новый', 'Старый']);
    for (const r of list) expect(r).not.toHaveProperty('email');
    expect(list[0]).toEqual({
      id: fresh.id,
      name: 'Новый',
      rating: 5,
      comment: fresh.comment,
      approved: true,
      created_at: fresh.created_at,
      verifiedStay: false,
    });
  });

  it('should approve, hide and delete a review', async () => {
    const review = await seedReview();
    expect(await updateReview(env, review.id, { approved: true })).toMatchObject({ approved: true });
    expect(await updateReview(env, review.id, { approved: false })).toMatchObject({ approved: false });
    expect(await deleteReview(env, review.id)).toMatchObject({ id: review.id, approved: false });
    expect(await deleteReview(env, review.id)).toBeUndefined();
    expect(await updateReview(env, review.id, { approved: true })).toBeUndefined();
  });

  it('should count hits per key within a window and start again after it', async () => {
    const windowMs = 60_000;
    expect(await hit(env, 'k1', windowMs)).toBe(1);
    expect(await hit(env, 'k1', windowMs)).toBe(2);
    expect(await hit(env, 'k2', windowMs)).toBe(1);
    expect(await hits(env, 'k1', windowMs)).toBe(2);
    // Move the window's start into the past: the next hit opens a new window.
    await env.DB.prepare('UPDATE rate_limits SET window_start = window_start - ? WHERE key = ?')
      .bind(windowMs, 'k1')
      .run();
    expect(await hits(env, 'k1', windowMs)).toBe(0);
    expect(await hit(env, 'k1', windowMs)).toBe(1);
  });
});

describe('public review routes', () => {
  it('should accept a review, store it unapproved and not show it yet', async () => {
    const res = await client({ ip: freshIp() }).api.reviews.$post({ json: validReview() as never });
    const body = await answerOf(res, 201);
    expect(body).toEqual({ success: true, id: expect.any(Number), approved: false });
    const [stored] = await listAllReviews(env);
    expect(stored).toMatchObject({ id: body.id, name: 'Иван', email: 'ivan@example.ru', rating: 4, approved: false });
    expect(await (await send('GET', '/api/reviews/approved')).json()).toEqual([]);
  });

  it('should store the review unapproved even if the visitor asks otherwise, with a rating of 5 by default', async () => {
    const res = await jsonRequest('POST', '/api/reviews', { ...validReview({ approved: true }), rating: undefined });
    expect(res.status).toBe(201);
    const [stored] = await listAllReviews(env);
    expect(stored).toMatchObject({ approved: false, rating: 5 });
  });

  it('should show approved reviews only and never their e-mail', async () => {
    const shown = await seedReview({ name: 'Одобренный', email: 'secret@example.ru', approved: true });
    await seedReview({ name: 'На модерации', email: 'hidden@example.ru' });
    const res = await client().api.reviews.approved.$get();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('@example.ru');
    const list = JSON.parse(text) as Partial<Review>[];
    expect(list).toEqual([
      {
        id: shown.id,
        name: 'Одобренный',
        rating: 5,
        comment: shown.comment,
        approved: true,
        created_at: shown.created_at,
        verifiedStay: false,
      },
    ]);
    expect(list[0]).not.toHaveProperty('email');
    expect(list[0]).not.toHaveProperty('bookingId');
  });

  it('should keep markup as plain text as written', async () => {
    const res = await jsonRequest('POST', '/api/reviews', validReview({ comment: '<script>alert(1)</script>' }));
    expect(res.status).toBe(201);
    expect((await listAllReviews(env))[0]!.comment).toBe('<script>alert(1)</script>');
  });

  const long = (n: number) => 'о'.repeat(n);
  const refused: [string, unknown, number, string | undefined][] = [
    ['rating 0', validReview({ rating: 0 }), 400, MSG.reviewRatingInvalid],
    ['rating 6', validReview({ rating: 6 }), 400, MSG.reviewRatingInvalid],
    ['rating 4.5', validReview({ rating: 4.5 }), 400, MSG.reviewRatingInvalid],
    ['rating as a string', validReview({ rating: '5' }), 400, MSG.reviewRatingInvalid],
    ['a comment of 1001 characters', validReview({ comment: long(1001) }), 400, MSG.reviewTooLong],
    ['an empty name', validReview({ name: '' }), 400, MSG.reviewRequired],
    ['a name of spaces', validReview({ name: '   ' }), 400, MSG.reviewRequired],
    ['a missing name', validReview({ name: undefined }), 400, MSG.reviewRequired],
    ['an empty comment', validReview({ comment: ' ' }), 400, MSG.reviewRequired],
    ['a missing e-mail', validReview({ email: undefined }), 400, MSG.reviewRequired],
    ['a bad e-mail', validReview({ email: 'не-почта' }), 400, MSG.reviewEmailInvalid],
    ['a name of 101 characters', validReview({ name: long(101) }), 400, MSG.tooLong],
    ['a name as a number', validReview({ name: 42 }), 400, MSG.reviewRequired],
    ['no consent', validReview({ consent: undefined }), 400, MSG.consentRequired],
    ['consent false', validReview({ consent: false }), 400, MSG.consentRequired],
    ['consent as a string', validReview({ consent: 'true' }), 400, MSG.consentRequired],
    ['a filled honeypot', validReview({ website: 'http://spam.example' }), 400, MSG.honeypot],
    ['malformed JSON', '{"name": "Иван", ', 400, MSG.badJson],
    ['an empty body', '', 400, undefined],
    ['a JSON string', '"отзыв"', 400, undefined],
  ];

  it.each(refused)('should refuse a review with %s and store nothing', async (_, body, status, message) => {
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/reviews', body), status, message);
    });
  });

  it('should accept a comment of exactly 1000 characters', async () => {
    const res = await jsonRequest('POST', '/api/reviews', validReview({ comment: long(1000) }));
    expect(res.status).toBe(201);
  });

  it('should refuse a review sent as a form with 415', async () => {
    await expectNoChange(async () => {
      const form = new FormData();
      for (const [k, v] of Object.entries(validReview())) form.append(k, String(v));
      await expectError(await send('POST', '/api/reviews', { body: form }), 415);
    });
  });

  it('should refuse the 6th review from one address within an hour with 429, and accept another address', async () => {
    expect(REVIEW_THROTTLE).toEqual({ max: 5, windowMs: 60 * 60 * 1000 });
    const ip = freshIp();
    for (let i = 1; i <= 5; i++) {
      const res = await jsonRequest('POST', '/api/reviews', validReview({ comment: `Отзыв номер ${i}` }), { ip });
      expect(res.status, `review ${i}`).toBe(201);
    }
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/reviews', validReview(), { ip }), 429, MSG.reviewThrottled);
    });
    expect(await listAllReviews(env)).toHaveLength(5);
    const other = await jsonRequest('POST', '/api/reviews', validReview(), { ip: freshIp() });
    expect(other.status).toBe(201);
    expect(await listAllReviews(env)).toHaveLength(6);
  });

  it('should accept reviews from the same address again after the hour has passed', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await jsonRequest('POST', '/api/reviews', validReview(), { ip })).status).toBe(201);
    expect((await jsonRequest('POST', '/api/reviews', validReview(), { ip })).status).toBe(429);
    await env.DB.prepare('UPDATE rate_limits SET window_start = window_start - ? WHERE key = ?')
      .bind(REVIEW_THROTTLE.windowMs, `review:${ip}`)
      .run();
    expect((await jsonRequest('POST', '/api/reviews', validReview(), { ip })).status).toBe(201);
  });

  it('should not count refused (invalid) reviews against the address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++)
      expect((await jsonRequest('POST', '/api/reviews', validReview({ rating: 0 }), { ip })).status).toBe(400);
    expect((await jsonRequest('POST', '/api/reviews', validReview(), { ip })).status).toBe(201);
  });
});

describe('review moderation', () => {
  it('should list every review, with e-mail, to the admin', async () => {
    const cookie = await login();
    const a = await seedReview({ name: 'A', approved: true });
    const b = await seedReview({ name: 'B' });
    const res = await client({ cookie }).api.reviews.$get();
    expect(res.status).toBe(200);
    const list = (await res.json()) as Review[];
    expect(list.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(list.find((r) => r.id === b.id)).toEqual(b);
  });

  it('should approve a review so it shows publicly, then hide it again', async () => {
    const cookie = await login();
    const review = await seedReview();
    const approve = await client({ cookie }).api.reviews[':id'].$put({
      param: { id: String(review.id) },
      json: { approved: true },
    });
    expect(approve.status).toBe(200);
    expect(await approve.json()).toEqual({ ...review, approved: true });
    const shown = (await (await send('GET', '/api/reviews/approved')).json()) as Review[];
    expect(shown.map((r) => r.id)).toEqual([review.id]);

    const hide = await jsonRequest('PUT', `/api/reviews/${review.id}`, { approved: false }, { cookie });
    expect(hide.status).toBe(200);
    expect(await (await send('GET', '/api/reviews/approved')).json()).toEqual([]);
  });

  it('should rebuild the site only when a change touches an approved review', async () => {
    const cookie = await login();
    // Through the app with an execution context of our own, so the publish task is awaited.
    const moderate = async (method: string, id: number, body?: unknown) => {
      const ctx = createExecutionContext();
      const headers = { cookie, origin: ORIGIN, ...(body ? { 'content-type': 'application/json' } : {}) };
      const res = await app.fetch(
        new Request(`${ORIGIN}/api/reviews/${id}`, { method, headers, body: body ? JSON.stringify(body) : null }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(200);
      return getContentVersion(env);
    };
    const spam = await seedReview({ name: 'Спам' });
    const start = await getContentVersion(env);
    // Editing or deleting a review nobody can see changes nothing public.
    expect(await moderate('PUT', spam.id, { comment: 'Исправлено' })).toBe(start);
    expect(await moderate('DELETE', spam.id)).toBe(start);

    const review = await seedReview();
    expect(await moderate('PUT', review.id, { approved: true })).toBe(start + 1);
    expect(await moderate('PUT', review.id, { comment: 'Видно всем' })).toBe(start + 2);
    expect(await moderate('PUT', review.id, { approved: false })).toBe(start + 3);
    expect(await moderate('PUT', review.id, { approved: true })).toBe(start + 4);
    expect(await moderate('DELETE', review.id)).toBe(start + 5);
  });

  it('should let the admin correct a review and keep the other fields', async () => {
    const cookie = await login();
    const review = await seedReview({ approved: true });
    const res = await jsonRequest('PUT', `/api/reviews/${review.id}`, { comment: 'Исправлено' }, { cookie });
    expect(res.status).toBe(200);
    expect((await listAllReviews(env))[0]).toEqual({ ...review, comment: 'Исправлено' });
  });

  it('should delete a review', async () => {
    const cookie = await login();
    const review = await seedReview({ approved: true });
    const keep = await seedReview({ name: 'Остаётся' });
    const res = await client({ cookie }).api.reviews[':id'].$delete({ param: { id: String(review.id) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect(await listAllReviews(env)).toEqual([keep]);
  });

  it('should answer 404 for moderating or deleting a review that does not exist', async () => {
    const cookie = await login();
    await seedReview();
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('PUT', '/api/reviews/999999', { approved: true }, { cookie }),
        404,
        MSG.reviewNotFound,
      );
      await expectError(await send('DELETE', '/api/reviews/999999', { cookie }), 404, MSG.reviewNotFound);
    });
  });

  it.each([
    ['an empty object', {}, MSG.badInput],
    ['approved as a string', { approved: 'yes' }, MSG.badInput],
    ['rating 6', { rating: 6 }, MSG.reviewRatingInvalid],
    ['a comment of 1001 characters', { comment: 'о'.repeat(1001) }, MSG.reviewTooLong],
    ['malformed JSON', '{"approved": tru', MSG.badJson],
  ] as [string, unknown, string][])(
    'should refuse a moderation with %s (400) and keep the review',
    async (_, body, message) => {
      const cookie = await login();
      const review = await seedReview();
      await expectNoChange(async () => {
        await expectError(await jsonRequest('PUT', `/api/reviews/${review.id}`, body, { cookie }), 400, message);
      });
    },
  );

  it('should answer 400 for a review id that is not a number', async () => {
    const cookie = await login();
    await seedReview();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/reviews/abc', { approved: true }, { cookie }), 400, MSG.badId);
      await expectError(await send('DELETE', '/api/reviews/1e3', { cookie }), 400, MSG.badId);
    });
  });
});
