import { z } from 'zod';
import { MSG } from '../../schema/messages.ts';

/** `/:id` path parameter: a positive integer. */
export const idParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, MSG.badId)
    .transform(Number),
});

/** `?page=N` of a paged list: a positive integer, 1 when absent. */
export const pageQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, MSG.badPage)
    .transform(Number)
    .optional(),
});
