import { createInsertSchema } from 'drizzle-zod';
import { z } from 'zod';
import { reviews } from './tables.ts';
import { MSG } from './messages.ts';
import {
  reviewComment,
  reviewEmail,
  reviewName,
  reviewRating,
  reviewSubmitSchema,
  type ReviewSubmit,
} from './review-submit.ts';

// The visitor's schema lives in review-submit.ts (plain zod, light enough for the browser).
export { reviewSubmitSchema, type ReviewSubmit };

const reviewFields = createInsertSchema(reviews, {
  name: () => reviewName,
  email: () => reviewEmail,
  rating: () => reviewRating,
  comment: () => reviewComment,
}).pick({ name: true, email: true, rating: true, comment: true });

/** Moderation and corrections by the admin: any subset of the fields. */
export const reviewUpdateSchema = reviewFields
  .extend({ approved: z.boolean({ error: MSG.badInput }) })
  .partial()
  .refine((v) => Object.keys(v).length > 0, MSG.badInput);

export type ReviewUpdate = z.infer<typeof reviewUpdateSchema>;
