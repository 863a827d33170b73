import { describe, expect, it } from 'vitest';
import { cabinInputSchema } from '../../schema/cabin-input.ts';
import { cabinCreateSchema, cabinUpdateSchema } from '../../schema/cabins.ts';
import { MSG } from '../../schema/messages.ts';

// The admin form checks cabins with the plain-zod cabinInputSchema; the worker with the
// drizzle-derived cabinCreateSchema. The owner must never see the form accept what the
// server then refuses (or the reverse), so both must answer every input alike.

const valid = { name: 'Домик у моря', description: 'Тёплый домик', pricePerNight: 5000 };
const corpus: [string, unknown][] = [
  ['the minimum', valid],
  [
    'every field',
    {
      ...valid,
      location: 'Каспийск',
      distanceToSea: '50 м',
      bedrooms: 2,
      bathrooms: 1,
      maxGuests: 4,
      amenities: ['Wi-Fi'],
      images: ['/media/a.jpg', 'https://example.com/b.jpg'],
      featured: true,
      active: false,
    },
  ],
  ['padded text', { ...valid, name: '  Домик  ' }],
  ['no name', { description: 'x', pricePerNight: 1 }],
  ['blank name', { ...valid, name: '   ' }],
  ['no price', { name: 'a', description: 'b' }],
  ['negative price', { ...valid, pricePerNight: -1 }],
  ['fractional price', { ...valid, pricePerNight: 1.5 }],
  ['price as text', { ...valid, pricePerNight: '5000' }],
  ['zero bedrooms', { ...valid, bedrooms: 0 }],
  ['too many guests', { ...valid, maxGuests: 101 }],
  ['long name', { ...valid, name: 'д'.repeat(121) }],
  ['bad photo address', { ...valid, images: ['javascript:alert(1)'] }],
  ['traversal photo', { ...valid, images: ['/media/../x'] }],
  ['empty amenity', { ...valid, amenities: [''] }],
  ['null field', { ...valid, location: null }],
  ['an id', { ...valid, id: 7 }],
  ['not an object', 'домик'],
  ['null', null],
];

const answer = (r: { success: boolean; data?: unknown; error?: { issues: { message: string }[] } }) =>
  r.success ? { ok: r.data } : { error: r.error!.issues[0]!.message };

describe('cabin schemas', () => {
  it.each(corpus)('should answer %s the same in the form and on the server', (_, input) => {
    expect(answer(cabinInputSchema.safeParse(input))).toEqual(answer(cabinCreateSchema.safeParse(input)));
  });

  it.each(corpus)('should answer a partial update of %s the same in the form and on the server', (_, input) => {
    expect(answer(cabinInputSchema.partial().safeParse(input))).toEqual(answer(cabinUpdateSchema.safeParse(input)));
  });

  it('should refuse a cabin with no name in the SPEC words', () => {
    expect(answer(cabinCreateSchema.safeParse({ description: 'x', pricePerNight: 1 }))).toEqual({
      error: MSG.cabinNameRequired,
    });
  });
});
