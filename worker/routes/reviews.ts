import { Hono } from 'hono';
import { REVIEW_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import { reviewSubmitSchema, reviewUpdateSchema } from '../../schema/reviews.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { hit } from '../queries/rate-limit.ts';
import { deleteReview, listAllReviews, listApprovedReviews, submitReview, updateReview } from '../queries/reviews.ts';
import { idParam } from './params.ts';

export const reviewRoutes = new Hono<AppEnv>()
  .get('/approved', async (c) => c.json(await listApprovedReviews(c.env)))
  .get('/', requireAdmin, async (c) => c.json(await listAllReviews(c.env)))
  .post('/', jsonBody, validate('json', reviewSubmitSchema), async (c) => {
    const count = await hit(c.env, `review:${clientIp(c)}`, REVIEW_THROTTLE.windowMs);
    if (count > REVIEW_THROTTLE.max) return apiError(c, 429, MSG.reviewThrottled);
    const review = await submitReview(c.env, c.req.valid('json'));
    // Unapproved reviews are not public: nothing to publish yet.
    return c.json({ success: true, id: review.id, approved: review.approved }, 201);
  })
  .put('/:id', requireAdmin, validate('param', idParam), jsonBody, validate('json', reviewUpdateSchema), publishOnSuccess, async (c) => {
    const review = await updateReview(c.env, c.req.valid('param').id, c.req.valid('json'));
    if (!review) return apiError(c, 404, MSG.reviewNotFound);
    return c.json(review);
  })
  .delete('/:id', requireAdmin, validate('param', idParam), publishOnSuccess, async (c) => {
    if (!(await deleteReview(c.env, c.req.valid('param').id))) return apiError(c, 404, MSG.reviewNotFound);
    return c.json({ success: true });
  });
