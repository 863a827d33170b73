import { Hono } from 'hono';
import { REVIEW_THROTTLE } from '../../schema/constants.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { guestPageLastDay } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import { reviewSubmitSchema, reviewUpdateSchema } from '../../schema/reviews.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { now } from '../lib/clock.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { reviewNotice } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import { schedulePublish } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { hit } from '../queries/rate-limit.ts';
import {
  deleteReview,
  getReview,
  listAllReviews,
  listApprovedReviews,
  stayOfToken,
  submitReview,
  submitStayReview,
  updateReview,
} from '../queries/reviews.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';
import { publicReviewsAnswer, reviewAnswer, reviewCreatedAnswer, successAnswer } from '../../schema/answers.ts';
import { z } from 'zod';

const doc = docs('Отзывы');

export const reviewRoutes = new Hono<AppEnv>()
  .get('/approved', doc('Одобренные отзывы', { answer: publicReviewsAnswer }), async (c) =>
    c.json(await listApprovedReviews(c.env)),
  )
  .get(
    '/',
    doc('Все отзывы, и на модерации', { admin: true, answer: z.array(reviewAnswer) }),
    requireAdmin,
    async (c) => c.json(await listAllReviews(c.env)),
  )
  // A review through the link a guest got after departure (`stayToken`) is one per booking and
  // needs no limit per address (a family shares one); the honeypot stays. Either way it waits for
  // moderation, and unapproved reviews are not public: nothing to publish yet.
  .post(
    '/',
    doc('Оставить отзыв (ждёт модерации)', { status: 201, answer: reviewCreatedAnswer, errors: [409, 429] }),
    jsonBody,
    validate('json', reviewSubmitSchema),
    async (c) => {
      const { stayToken, ...input } = c.req.valid('json');
      let review;
      if (stayToken) {
        const stay = await stayOfToken(c.env, stayToken);
        const today = todayInMoscow(now());
        if (!stay || stay.status !== 'confirmed' || today > guestPageLastDay(stay.checkOut))
          return apiError(c, 400, MSG.stayTokenInvalid);
        if (today < stay.checkOut) return apiError(c, 400, MSG.stayReviewTooEarly);
        review = await submitStayReview(c.env, input, stay.id);
        if (!review) return apiError(c, 409, MSG.stayReviewTwice);
      } else {
        const count = await hit(c.env, `review:${clientIp(c)}`, REVIEW_THROTTLE.windowMs);
        if (count > REVIEW_THROTTLE.max) return apiError(c, 429, MSG.reviewThrottled);
        review = await submitReview(c.env, input);
      }
      afterResponse(c, 'Review notification', notifyOwner(c.env, reviewNotice(review, c.env.SITE_URL)));
      return c.json({ success: true, id: review.id, approved: review.approved }, 201);
    },
  )
  // Only approved reviews are public: moderating one that stays hidden (editing or deleting
  // spam) changes nothing visitors see, so it does not rebuild the site.
  .put(
    '/:id',
    doc('Изменить или одобрить отзыв', { admin: true, answer: reviewAnswer, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', reviewUpdateSchema),
    async (c) => {
      const id = c.req.valid('param').id;
      const before = await getReview(c.env, id);
      const review = before && (await updateReview(c.env, id, c.req.valid('json')));
      if (!before || !review) return apiError(c, 404, MSG.reviewNotFound);
      if (before.approved || review.approved) schedulePublish(c);
      return c.json(review);
    },
  )
  .delete(
    '/:id',
    doc('Удалить отзыв', { admin: true, answer: successAnswer, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const removed = await deleteReview(c.env, c.req.valid('param').id);
      if (!removed) return apiError(c, 404, MSG.reviewNotFound);
      if (removed.approved) schedulePublish(c);
      return c.json({ success: true });
    },
  );
