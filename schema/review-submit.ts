import { z } from 'zod';
import { MSG } from './messages.ts';
import { RATING_MAX, REVIEW_COMMENT_MAX } from './constants.ts';
import { GUEST_TOKEN_PATTERN } from './guest-page.ts';

// The visitor's review form, in plain zod: the browser loads this schema to check the form,
// so it must not pull in drizzle (schema/reviews.ts builds the admin's update schema on the
// same field rules and re-exports this one for the worker).

export const requiredText = (max: number, tooLong: string = MSG.tooLong) =>
  z.string({ error: MSG.reviewRequired }).trim().min(1, MSG.reviewRequired).max(max, tooLong);
export const reviewRating = z
  .number({ error: MSG.reviewRatingInvalid })
  .int(MSG.reviewRatingInvalid)
  .min(1, MSG.reviewRatingInvalid)
  .max(RATING_MAX, MSG.reviewRatingInvalid);
export const reviewEmail = requiredText(200).pipe(z.email(MSG.reviewEmailInvalid));
export const reviewName = requiredText(100);
export const reviewComment = requiredText(REVIEW_COMMENT_MAX, MSG.reviewTooLong);

/**
 * What a visitor submits. The same schema validates the form in the browser and the route.
 * `rating` may be left out (the table's default, 5). `consent` is the visitor's 152-ФЗ
 * consent; `website` is a honeypot that people never see. `stayToken` comes with the review link
 * the guest got after departure (their booking's page): the review is then marked «Гость
 * проживал(а)», one per booking.
 */
export const reviewSubmitSchema = z.object({
  name: reviewName,
  email: reviewEmail,
  rating: reviewRating.optional(),
  comment: reviewComment,
  consent: z.literal(true, { error: MSG.consentRequired }),
  website: z.string().max(0, MSG.honeypot).optional(),
  stayToken: z.string({ error: MSG.stayTokenInvalid }).regex(GUEST_TOKEN_PATTERN, MSG.stayTokenInvalid).optional(),
});

export type ReviewSubmit = z.infer<typeof reviewSubmitSchema>;
