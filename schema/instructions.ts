// A cabin's arrival instructions: what the owner tells guests once their stay is
// confirmed (check-in, keys, Wi-Fi). Shown only on a guest's own page, never in a public read.
import { z } from 'zod';
import { MSG } from './messages.ts';

export const INSTRUCTIONS_MAX_LENGTH = 5000;

/** PUT /api/admin/cabins/{id}/instructions: the whole text; empty clears it. */
export const instructionsSchema = z.strictObject(
  { text: z.string({ error: MSG.badInput }).trim().max(INSTRUCTIONS_MAX_LENGTH, MSG.instructionsTooLong) },
  { error: MSG.badInput },
);
