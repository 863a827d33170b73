// What the owner sends to set prices (docs/api.md «Pricing»), checked with the same rules
// in the panel and on the server. The pricing itself is schema/pricing.ts.
import { z } from 'zod';
import { CALENDAR_INPUT_MONTHS, weekendPrice } from './calendar.ts';
import { addMonths, isIsoDate, todayInMoscow } from './dates.ts';
import { MSG } from './messages.ts';
import { CHILD_MAX_AGE, EXTRA_KINDS, EXTRA_PER, PETS_PER } from './pricing.ts';
import { PROMO_CODE_PATTERN, promoCodeKey } from './promo-code.ts';

const whole = (message: string, min: number, max: number) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);
const isoDate = z.string({ error: MSG.dateInvalid }).refine(isIsoDate, MSG.dateInvalid);

/** A cabin's own pricing fields, beside its price (schema/cabin-input.ts). */
export const cabinPricingFields = {
  weekendPricePerNight: weekendPrice,
  weekendNights: z
    .array(whole(MSG.weekendNightsInvalid, 1, 7), { error: MSG.weekendNightsInvalid })
    .max(7, MSG.weekendNightsInvalid)
    .refine((days) => new Set(days).size === days.length, MSG.weekendNightsInvalid)
    .optional(),
  baseGuests: whole(MSG.baseGuestsInvalid, 1, 100).nullable().optional(),
  extraGuestPerNight: whole(MSG.extraGuestFeeInvalid, 0, 1_000_000).optional(),
  children: z
    .strictObject(
      {
        freeUnderAge: whole(MSG.childrenAgeRuleInvalid, 0, CHILD_MAX_AGE + 1),
        sharePercentUntilAge: whole(MSG.childrenAgeRuleInvalid, 0, CHILD_MAX_AGE + 1),
        sharePercent: whole(MSG.childrenShareInvalid, 0, 100),
      },
      { error: MSG.badInput },
    )
    .optional(),
  pets: z
    .strictObject(
      {
        allowed: z.boolean({ error: MSG.badInput }),
        fee: whole(MSG.petsFeeInvalid, 0, 1_000_000),
        per: z.enum(PETS_PER, { error: MSG.petsPerInvalid }),
      },
      { error: MSG.badInput },
    )
    .optional(),
};

/** `childrenAges=3,9` of a query string: each child's age, 0 to 17 (at most 30 children). */
export const childrenAgesList = z
  .string({ error: MSG.childrenAgesInvalid })
  .regex(/^(\d{1,2}(,\d{1,2}){0,29})?$/, MSG.childrenAgesInvalid)
  .transform((s) => (s ? s.split(',').map(Number) : []))
  .refine((ages) => ages.every((a) => a <= CHILD_MAX_AGE), MSG.childrenAgesInvalid);
export const childrenAgesQuery = childrenAgesList.optional();
/** `pets=1` (or true) of a query string; `0`, `false` or absent: without. */
export const petsQuery = z
  .enum(['0', '1', 'true', 'false'], { error: MSG.petsInvalid })
  .transform((v) => v === '1' || v === 'true')
  .optional();

/** PUT /admin/cabins/{id}/date-prices: the whole list of single nights' prices, today on. */
export const datePricesBodySchema = z.strictObject({
  prices: z
    .array(
      z.strictObject({
        date: isoDate.refine(
          (d) => !isIsoDate(d) || (d >= todayInMoscow() && d <= addMonths(todayInMoscow(), CALENDAR_INPUT_MONTHS)),
          MSG.dateTooFar,
        ),
        price: whole(MSG.datePriceInvalid, 0, 10_000_000),
      }),
    )
    .max(400, MSG.tooMany)
    .refine((list) => new Set(list.map((p) => p.date)).size === list.length, MSG.datePriceRepeated),
});

const percent = whole(MSG.discountPercentInvalid, 1, 100);
export const discountSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('longStay'), minNights: whole(MSG.discountNightsInvalid, 1, 365), percent }),
    z.strictObject({ kind: z.literal('earlyBooking'), minDaysAhead: whole(MSG.discountDaysInvalid, 0, 730), percent }),
    z.strictObject({ kind: z.literal('lastMinute'), maxDaysAhead: whole(MSG.discountDaysInvalid, 0, 730), percent }),
  ],
  { error: MSG.discountKindInvalid },
);

export const extraInputSchema = z
  .strictObject({
    id: z.number().int().positive().optional(),
    name: z.string({ error: MSG.extraNameRequired }).trim().min(1, MSG.extraNameRequired).max(60, MSG.tooLong),
    price: whole(MSG.extraPriceInvalid, 0, 1_000_000),
    per: z.enum(EXTRA_PER, { error: MSG.extraPerInvalid }),
    mandatory: z.boolean({ error: MSG.badInput }).optional().default(false),
    cabinIds: z
      .array(z.number({ error: MSG.badId }).int(MSG.badId).positive(MSG.badId))
      .max(2000)
      .nullable()
      .optional()
      .default(null),
    kind: z.enum(EXTRA_KINDS, { error: MSG.extraKindInvalid }).optional().default('ordinary'),
    /** The hour an early check-in or a late check-out gives; an ordinary extra has none. */
    time: z.string({ error: MSG.extraTimeInvalid }).nullable().optional().default(null),
  })
  .superRefine((e, ctx) => {
    if (e.kind === 'ordinary') return;
    if (!e.time || !/^([01]\d|2[0-3]):[0-5]\d$/.test(e.time))
      ctx.addIssue({ code: 'custom', message: MSG.extraTimeInvalid, path: ['time'] });
    // Offered only when the neighbouring night is free: it cannot be in every booking.
    if (e.mandatory) ctx.addIssue({ code: 'custom', message: MSG.extraEarlyLateMandatory, path: ['mandatory'] });
  })
  .transform((e) => ({ ...e, time: e.kind === 'ordinary' ? null : e.time }));

/** PUT /admin/pricing: every discount rule and every extra, as whole lists. */
export const pricingBodySchema = z.strictObject({
  discounts: z.array(discountSchema).max(20, MSG.tooMany),
  extras: z.array(extraInputSchema).max(30, MSG.tooMany),
});

const optionalDate = isoDate.nullable().optional();
export const promoInputSchema = z
  .strictObject({
    code: z
      .string({ error: MSG.promoCodeInvalid })
      .trim()
      .regex(PROMO_CODE_PATTERN, MSG.promoCodeInvalid)
      .transform((c) => c.toUpperCase()),
    percent: percent.nullable().optional(),
    amount: whole(MSG.promoValueInvalid, 1, 10_000_000).nullable().optional(),
    validFrom: optionalDate,
    validTo: optionalDate,
    stayFrom: optionalDate,
    stayTo: optionalDate,
    maxUses: whole(MSG.promoUsesInvalid, 1, 100_000).nullable().optional(),
    // GET /admin/promo-codes answers each code with its uses: the list may be sent back as it is.
    uses: z.unknown().optional(),
  })
  .superRefine((p, ctx) => {
    if ((p.percent == null) === (p.amount == null))
      ctx.addIssue({ code: 'custom', message: MSG.promoValueInvalid, path: ['percent'] });
    if (p.validFrom && p.validTo && p.validTo < p.validFrom)
      ctx.addIssue({ code: 'custom', message: MSG.promoPeriodInvalid, path: ['validTo'] });
    if (p.stayFrom && p.stayTo && p.stayTo < p.stayFrom)
      ctx.addIssue({ code: 'custom', message: MSG.promoStayPeriodInvalid, path: ['stayTo'] });
  })
  .transform(({ uses: _uses, ...p }) => ({
    code: p.code,
    percent: p.percent ?? null,
    amount: p.amount ?? null,
    validFrom: p.validFrom ?? null,
    validTo: p.validTo ?? null,
    stayFrom: p.stayFrom ?? null,
    stayTo: p.stayTo ?? null,
    maxUses: p.maxUses ?? null,
  }));

export const promoCodesBodySchema = z.strictObject({
  codes: z
    .array(promoInputSchema)
    .max(200, MSG.tooMany)
    .superRefine((list, ctx) => {
      // Codes a guest's typing could not tell apart (promoCodeKey): one would hide the other. The later one is named.
      const seen = new Map<string, string>();
      list.forEach(({ code }, i) => {
        const earlier = seen.get(promoCodeKey(code));
        if (earlier !== undefined)
          ctx.addIssue({
            code: 'custom',
            message: earlier === code ? MSG.promoCodeRepeated : MSG.promoCodeLookAlike,
            path: [i],
          });
        else seen.set(promoCodeKey(code), code);
      });
    }),
});
export type PromoInput = z.infer<typeof promoInputSchema>;

/** The owner's name of a field of the pricing forms, from a validation issue's path. */
export function pricingFieldName(path: readonly PropertyKey[]): string | undefined {
  const [first, index] = path;
  if (typeof index !== 'number') return undefined;
  if (first === 'discounts') return `Скидка ${index + 1}`;
  if (first === 'extras') return `Услуга ${index + 1}`;
  if (first === 'codes') return `Промокод ${index + 1}`;
  if (first === 'prices') return `Дата ${index + 1}`;
  return undefined;
}

/** GET /quote's query: the stay, the guests, the extras ticked and the code typed. */
export const quoteQuerySchema = z.object({
  cabinId: z
    .string({ error: MSG.badId })
    .regex(/^[1-9]\d{0,9}$/, MSG.badId)
    .transform(Number),
  checkIn: isoDate,
  checkOut: isoDate,
  guests: z
    .string({ error: MSG.bookingGuestsInvalid })
    .regex(/^\d{1,3}$/, MSG.bookingGuestsInvalid)
    .transform(Number)
    .refine((n) => n >= 1, MSG.bookingGuestsInvalid),
  extras: z
    .string()
    .regex(/^(\d{1,9}(,\d{1,9}){0,29})?$/, MSG.extraNotFound)
    .transform((s) => (s ? s.split(',').map(Number) : []))
    .optional(),
  promo: z.string().trim().max(40, MSG.promoCodeInvalid).optional(),
  childrenAges: childrenAgesQuery,
  pets: petsQuery,
});
