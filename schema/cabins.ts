import { createInsertSchema } from 'drizzle-zod';
import type { z } from 'zod';
import { cabinFields } from './cabin-input.ts';
import { cabins } from './tables.ts';

export { imageUrl, cabinInputSchema, type CabinInput } from './cabin-input.ts';

const f = cabinFields;
/**
 * The create payload: every cabin field but id, each with the rules of cabin-input.ts.
 * Omitted optional fields take the table's defaults (bedrooms 1, bathrooms 1, guests 2,
 * active true, featured false).
 */
export const cabinCreateSchema = createInsertSchema(cabins, {
  name: () => f.name,
  description: () => f.description,
  pricePerNight: () => f.pricePerNight,
  location: () => f.location,
  distanceToSea: () => f.distanceToSea,
  bedrooms: () => f.bedrooms,
  bathrooms: () => f.bathrooms,
  maxGuests: () => f.maxGuests,
  amenities: () => f.amenities,
  images: () => f.images,
  featured: () => f.featured,
  active: () => f.active,
  weekendPricePerNight: () => f.weekendPricePerNight,
  weekendNights: () => f.weekendNights,
  baseGuests: () => f.baseGuests,
  extraGuestPerNight: () => f.extraGuestPerNight,
  deposit: () => f.deposit,
  children: () => f.children,
  pets: () => f.pets,
}).omit({ id: true });
/** The update payload: any subset of the create fields; absent fields keep their value. */
export const cabinUpdateSchema = cabinCreateSchema.partial();

export type CabinUpdate = z.infer<typeof cabinUpdateSchema>;
