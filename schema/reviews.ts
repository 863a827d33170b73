import { createInsertSchema } from 'drizzle-zod';
import { z } from 'zod';
import { reviews } from './tables.ts';
import { MSG } from './messages.ts';
import { RATING_MAX, REVIEW_COMMENT_MAX } from './constants.ts';

const required = (max: number, tooLong: string = MSG.tooLong) =>
  z.string({ error: MSG.reviewRequired }).trim().min(1, MSG.reviewRequired).max(max, tooLong);
const rating = z
  .number({ error: MSG.reviewRatingInvalid })
  .int(MSG.reviewRatingInvalid)
  .min(1, MSG.reviewRatingInvalid)
  .max(RATING_MAX, MSG.reviewRatingInvalid);
const email = required(200).pipe(z.email(MSG.reviewEmailInvalid));

const reviewFields = createInsertSchema(reviews, {
  name: () => required(100),
  email: () => email,
  rating: () => rating,
  comment: () => required(REVIEW_COMMENT_MAX, MSG.reviewTooLong),
}).pick({ name: true, email: true, rating: true, comment: true });

/**
 * What a visitor submits. The same schema validates the form in the browser and the route.
 * `consent` is the visitor's 152-ФЗ consent; `website` is a honeypot that people never see.
 */
export const reviewSubmitSchema = reviewFields.extend({
  consent: z.literal(true, { error: MSG.consentRequired }),
  website: z.string().max(0, MSG.honeypot).optional(),
});

/** Moderation and corrections by the admin: any subset of the fields. */
export const reviewUpdateSchema = reviewFields
  .extend({ approved: z.boolean({ error: MSG.badInput }) })
  .partial()
  .refine((v) => Object.keys(v).length > 0, MSG.badInput);

export type ReviewSubmit = z.infer<typeof reviewSubmitSchema>;
export type ReviewUpdate = z.infer<typeof reviewUpdateSchema>;
