import { z } from 'zod';
import { DEPOSIT_MAX_RUB } from './deposits.ts';
import { MSG } from './messages.ts';
import { cabinPricingFields } from './pricing-input.ts';

// The cabin form's field rules, in plain zod: the admin panel loads these to check the form,
// so they must not pull drizzle into the browser. schema/cabins.ts derives the worker's
// create/update schemas from the drizzle table with exactly these rules, and a unit test
// holds the two to the same answers.

const trimmed = (max: number, required?: string) => {
  const s = z
    .string({ error: required ?? MSG.badInput })
    .trim()
    .max(max, MSG.tooLong);
  return required ? s.min(1, required) : s;
};
const count = z
  .number({ error: MSG.cabinCountMin })
  .int(MSG.cabinCountMin)
  .min(1, MSG.cabinCountMin)
  .max(100, MSG.cabinCountMin);

/** A photo we serve from R2, or an absolute http(s) address. */
export const imageUrl = z
  .string()
  .max(500, MSG.tooLong)
  .regex(/^(\/media\/[A-Za-z0-9._-]+|https?:\/\/\S+)$/, MSG.imageUrlInvalid);

/** Every cabin field but id. Fields with a table default are optional; the table fills them in. */
export const cabinFields = {
  name: trimmed(120, MSG.cabinNameRequired),
  description: trimmed(5000, MSG.cabinDescriptionRequired),
  pricePerNight: z
    .number({ error: (i) => (i.input === undefined ? MSG.cabinPriceRequired : MSG.cabinPriceInvalid) })
    .int(MSG.cabinPriceInvalid)
    .min(0, MSG.cabinPriceInvalid)
    .max(10_000_000, MSG.cabinPriceInvalid),
  location: trimmed(200).optional(),
  distanceToSea: trimmed(60).optional(),
  bedrooms: count.optional(),
  bathrooms: count.optional(),
  maxGuests: count.optional(),
  amenities: z.array(trimmed(60).min(1)).max(40).optional(),
  images: z.array(imageUrl).max(30).optional(),
  featured: z.boolean().optional(),
  active: z.boolean().optional(),
  deposit: z
    .number({ error: MSG.depositInvalid })
    .int(MSG.depositInvalid)
    .min(0, MSG.depositInvalid)
    .max(DEPOSIT_MAX_RUB, MSG.depositInvalid)
    .optional(),
  ...cabinPricingFields,
};

/** The cabin form's check in the browser: the same rules as the worker's cabinCreateSchema. */
export const cabinInputSchema = z.object(cabinFields);

export type CabinInput = z.infer<typeof cabinInputSchema>;
