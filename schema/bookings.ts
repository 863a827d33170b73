// Booking requests (docs/api.md «Calendar and booking»), in plain zod: the booking card
// checks its form with the same schema the route uses, so it must not pull in drizzle.
import { z } from 'zod';
import { addMonths, isIsoDate, nightsBetween, todayInMoscow } from './dates.ts';
import { CALENDAR_INPUT_MONTHS } from './calendar.ts';
import { MSG } from './messages.ts';
import { bookingSourceSchema } from './visits.ts';
import { CHILD_MAX_AGE } from './pricing.ts';

// The statuses, channels and limits live in booking-options.ts (no zod: the booking card and
// every page that reads the defaults load them).
export * from './booking-options.ts';
import { BOOKING_CHANNELS, BOOKING_MAX_NIGHTS, OWNER_STATUSES } from './booking-options.ts';

const text = (max: number) => z.string({ error: MSG.badInput }).trim().max(max, MSG.tooLong);
const isoDate = z.string({ error: MSG.dateInvalid }).refine(isIsoDate, MSG.dateInvalid);

/** A phone as people write it: +7 (928) 555-12-34, 8 928 555 12 34; 10 to 15 digits. */
export const bookingPhone = text(30).refine(
  (v) => /^\+?[\d\s()-]+$/.test(v) && v.replace(/\D/g, '').length >= 10 && v.replace(/\D/g, '').length <= 15,
  MSG.bookingPhoneInvalid,
);

/**
 * What the visitor sends. The nights, the minimum stay, the guests against the cabin and
 * whether the nights are free are checked by the route against the database; the total is
 * always the server's. `website` is a honeypot people never see.
 */
export const bookingSubmitSchema = z
  .strictObject({
    cabinId: z.number({ error: MSG.badId }).int(MSG.badId).positive(MSG.badId),
    checkIn: isoDate,
    checkOut: isoDate,
    guests: z
      .number({ error: MSG.bookingGuestsInvalid })
      .int(MSG.bookingGuestsInvalid)
      .min(1, MSG.bookingGuestsInvalid)
      .max(100, MSG.bookingTooManyGuests),
    /** Each child's age (`guests` counts the adults); they count toward the cabin's guests too. */
    childrenAges: z
      .array(
        z
          .number({ error: MSG.childrenAgesInvalid })
          .int(MSG.childrenAgesInvalid)
          .min(0, MSG.childrenAgesInvalid)
          .max(CHILD_MAX_AGE, MSG.childrenAgesInvalid),
        { error: MSG.childrenAgesInvalid },
      )
      .max(30, MSG.bookingTooManyGuests)
      .optional()
      .default([]),
    pets: z.boolean({ error: MSG.petsInvalid }).optional().default(false),
    name: text(100).min(1, MSG.bookingNameRequired),
    phone: bookingPhone,
    email: z
      .union([z.literal(''), text(200).pipe(z.email(MSG.bookingEmailInvalid))])
      .optional()
      .default(''),
    comment: text(1000).optional().default(''),
    consent: z.literal(true, { error: MSG.consentRequired }),
    channel: z.enum(BOOKING_CHANNELS, { error: MSG.bookingChannelInvalid }),
    website: z.string().max(0, MSG.bookingHoneypot).optional(),
    /** The optional extras ticked on the card; mandatory ones are added by the server. */
    extras: z
      .array(z.number({ error: MSG.extraNotFound }).int(MSG.extraNotFound).positive(MSG.extraNotFound))
      .max(30, MSG.tooMany)
      .optional()
      .default([]),
    /** A promo code as typed; the server checks it and counts its use when the booking is stored. */
    promo: z.string({ error: MSG.promoCodeInvalid }).trim().max(40, MSG.promoCodeInvalid).optional().default(''),
    /**
     * Where the visit came from (the link's tags, the referring host), as the page kept it for the
     * visit. A source that does not read is dropped, never the booking.
     */
    source: bookingSourceSchema.optional().catch(undefined),
  })
  .superRefine(stayDatesRule);

/**
 * The dates of a stay a guest asks for (a booking, a move of one): in order, from today, within
 * the calendar's months and not longer than a stay may be.
 */
export function stayDatesRule(b: { checkIn: string; checkOut: string }, ctx: z.RefinementCtx): void {
  if (!isIsoDate(b.checkIn) || !isIsoDate(b.checkOut)) return;
  const today = todayInMoscow();
  if (b.checkOut <= b.checkIn) ctx.addIssue({ code: 'custom', message: MSG.dateRangeInvalid, path: ['checkOut'] });
  else if (b.checkIn < today) ctx.addIssue({ code: 'custom', message: MSG.bookingCheckInPast, path: ['checkIn'] });
  else if (b.checkIn > addMonths(today, CALENDAR_INPUT_MONTHS))
    ctx.addIssue({ code: 'custom', message: MSG.dateTooFar, path: ['checkIn'] });
  else if (nightsBetween(b.checkIn, b.checkOut) > BOOKING_MAX_NIGHTS)
    ctx.addIssue({ code: 'custom', message: MSG.bookingTooLong, path: ['checkOut'] });
}

export type BookingSubmit = z.infer<typeof bookingSubmitSchema>;

/** The owner's decision on a request. */
export const bookingStatusSchema = z.strictObject({
  status: z.enum(OWNER_STATUSES, { error: MSG.bookingStatusInvalid }),
});
