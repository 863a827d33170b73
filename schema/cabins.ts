import { createInsertSchema, createSelectSchema } from 'drizzle-zod';
import { z } from 'zod';
import { cabins } from './tables.ts';
import { MSG } from './messages.ts';

const trimmed = (max: number, required?: string) => {
  const s = z.string({ error: required ?? MSG.badInput }).trim().max(max, MSG.tooLong);
  return required ? s.min(1, required) : s;
};
const count = z.number({ error: MSG.cabinCountMin }).int(MSG.cabinCountMin).min(1, MSG.cabinCountMin).max(100, MSG.cabinCountMin);
/** A photo we serve from R2, or an absolute http(s) address. */
export const imageUrl = z
  .string()
  .max(500, MSG.tooLong)
  .regex(/^(\/media\/[A-Za-z0-9._-]+|https?:\/\/\S+)$/, MSG.imageUrlInvalid);

const refinements = {
  name: () => trimmed(120, MSG.cabinNameRequired),
  description: () => trimmed(5000, MSG.cabinDescriptionRequired),
  pricePerNight: () =>
    z
      .number({ error: (i) => (i.input === undefined ? MSG.cabinPriceRequired : MSG.cabinPriceInvalid) })
      .int(MSG.cabinPriceInvalid)
      .min(0, MSG.cabinPriceInvalid)
      .max(10_000_000, MSG.cabinPriceInvalid),
  // Fields with a table default stay optional; the table fills them in.
  location: () => trimmed(200).optional(),
  distanceToSea: () => trimmed(60).optional(),
  bedrooms: () => count.optional(),
  bathrooms: () => count.optional(),
  maxGuests: () => count.optional(),
  amenities: () => z.array(trimmed(60).min(1)).max(40).optional(),
  images: () => z.array(imageUrl).max(30).optional(),
  featured: () => z.boolean().optional(),
  active: () => z.boolean().optional(),
};

/**
 * The create payload: every cabin field but id. Omitted optional fields take the table's
 * defaults (bedrooms 1, bathrooms 1, guests 2, active true, featured false).
 */
export const cabinCreateSchema = createInsertSchema(cabins, refinements).omit({ id: true });
/** The update payload: any subset of the create fields; absent fields keep their value. */
export const cabinUpdateSchema = cabinCreateSchema.partial();
export const cabinSchema = createSelectSchema(cabins);

export type CabinInput = z.infer<typeof cabinCreateSchema>;
export type CabinUpdate = z.infer<typeof cabinUpdateSchema>;
