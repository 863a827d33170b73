// What the main public routes answer, as zod: the OpenAPI document (worker/lib/openapi.ts) shows
// these, and every contract test checks the answers it gets against them (test/worker/helpers.ts),
// so a route that starts answering otherwise fails there, not in a client.
import { depositView } from './deposits.ts';
import { createSelectSchema } from 'drizzle-zod';
import { z } from 'zod';
import { BOOKING_STATUSES } from './booking-options.ts';
import { cabins } from './tables.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const roubles = z.number().int();
const kopecks = z.number().int();

/** Every refusal of the API: a Russian text for a person (a few say more beside it, e.g. that a code is needed). */
export const errorAnswer = z.looseObject({ error: z.string().min(1) });

export const successAnswer = z.object({ success: z.literal(true) });

/** POST /api/admin/users/{id}/link: the cleaner's sign-in address, shown this once (ms in `createdAt`). */
export const signInLinkAnswer = z.object({ url: z.string(), createdAt: z.number().int() });

/** GET /api/admin/today/messengers: where the cleaner may get the morning list, and where they do. */
const cleanerMessenger = z.object({ available: z.boolean(), linked: z.boolean() });
export const cleanerMessengersAnswer = z.object({ telegram: cleanerMessenger, max: cleanerMessenger });

/** POST /api/admin/today/messengers/{channel}: the one-time link to the owner's bot (ms in `expiresAt`). */
export const cleanerLinkAnswer = z.object({ url: z.string(), expiresAt: z.number().int() });

/** A cabin as the public reads it (GET /api/cabins, /api/cabins/{id}). */
export const cabinAnswer = createSelectSchema(cabins, {
  amenities: () => z.array(z.string()),
  images: () => z.array(z.string()),
  weekendNights: () => z.array(z.number().int()),
});
export const cabinListAnswer = z.array(cabinAnswer);

/** One line of a priced stay (schema/payment-options.ts PriceLine). */
export const priceLineAnswer = z.object({
  kind: z.enum(['nights', 'extraGuests', 'children', 'discount', 'promo', 'extra', 'pets', 'fee', 'tax']),
  label: z.string(),
  amount: roubles,
});

const busyRange = z.object({ start: isoDate, end: isoDate });

/** GET /api/cabins/{id}/availability: the booking card prices with it; the pricing rules' inner shapes are schema/pricing.ts's. */
export const availabilityAnswer = z.looseObject({
  from: isoDate,
  to: isoDate,
  busy: z.array(busyRange),
  seasons: z.array(
    z.object({
      start: isoDate,
      end: isoDate,
      pricePerNight: roubles,
      minNights: z.number().int(),
      weekendPricePerNight: roubles.nullable(),
      closedToArrival: z.array(z.number().int()),
      closedToDeparture: z.array(z.number().int()),
      maxNights: z.number().int().nullable(),
    }),
  ),
  pricePerNight: roubles,
  minNights: z.number().int(),
  weekendPricePerNight: roubles.nullable(),
  weekendNights: z.array(z.number().int()),
  baseGuests: z.number().int().nullable(),
  extraGuestPerNight: roubles,
  children: z.object({
    freeUnderAge: z.number().int(),
    sharePercentUntilAge: z.number().int(),
    sharePercent: z.number().int(),
  }),
  pets: z.object({ allowed: z.boolean(), fee: roubles, per: z.enum(['stay', 'night']) }),
  datePrices: z.array(z.object({ date: isoDate, price: roubles })),
  discounts: z.array(z.looseObject({ kind: z.string() })),
  extras: z.array(z.looseObject({ id: z.number().int(), name: z.string(), price: roubles })),
  charges: z.looseObject({}),
  bookingMode: z.enum(['request', 'prepayment']),
  prepayment: z.unknown(),
});

/** GET /api/quote. */
export const quoteAnswer = z.object({
  nights: z.number().int(),
  total: roubles,
  lines: z.array(priceLineAnswer),
  minNights: z.number().int(),
  maxNights: z.number().int().nullable(),
  extras: z.array(z.number().int()),
  /** The early check-ins and late check-outs not offered for these dates, and why. */
  withheld: z.array(z.object({ id: z.number().int(), reason: z.string() })),
});

const searchStay = z.object({ checkIn: isoDate, checkOut: isoDate, total: roubles });

/** GET /api/search (schema/search.ts SearchAnswerJson): each distinct list of lines once, in `lineSets`. */
export const searchAnswer = z.object({
  checkIn: isoDate,
  checkOut: isoDate,
  nights: z.number().int(),
  guests: z.number().int(),
  childrenAges: z.array(z.number().int()),
  pets: z.boolean(),
  lineSets: z.array(z.array(priceLineAnswer)),
  results: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      nights: z.number().int(),
      total: roubles,
      lineSet: z.number().int(),
      pets: z.boolean(),
    }),
  ),
  others: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      reason: z.enum(['busy', 'minNights', 'closed']),
      minNights: z.number().int(),
      nearest: searchStay.optional(),
    }),
  ),
});

/** POST /api/bookings: a request, or a hold with its payment (or why the payment could not start). */
export const bookingCreatedAnswer = z.object({
  id: z.number().int(),
  nights: z.number().int(),
  total: roubles,
  lines: z.array(priceLineAnswer),
  guestUrl: z.string(),
  payment: z.object({ amount: kopecks, confirmationUrl: z.string(), holdUntil: z.string() }).optional(),
  paymentError: z.string().optional(),
});

/** GET /api/guest/{token} (schema/guest-page.ts GuestPageAnswer). */
export const guestPageAnswer = z.object({
  id: z.number().int(),
  status: z.enum(BOOKING_STATUSES),
  cabin: z.object({ id: z.number().int(), name: z.string() }),
  checkIn: isoDate,
  checkOut: isoDate,
  nights: z.number().int(),
  guests: z.number().int(),
  childrenAges: z.array(z.number().int()),
  pets: z.boolean(),
  lines: z.array(priceLineAnswer),
  total: roubles,
  paid: kopecks,
  due: kopecks,
  canPay: z.boolean(),
  pendingPayment: z.object({ amount: kopecks, confirmationUrl: z.string() }).optional(),
  deposit: depositView.extend({ canPay: z.boolean(), confirmationUrl: z.string().optional() }).optional(),
  cancel: z.looseObject({
    allowed: z.boolean(),
    reason: z.string().optional(),
    freeUntil: isoDate.nullable(),
    free: z.boolean(),
    refund: kopecks,
    kept: kopecks,
    policy: z.looseObject({}),
  }),
  refunded: kopecks,
  checkInTime: z.string(),
  checkOutTime: z.string(),
  instructions: z
    .object({
      address: z.string(),
      mapUrl: z.string(),
      text: z.string(),
      phone: z.string(),
      email: z.string(),
      siteName: z.string(),
    })
    .optional(),
  canReview: z.boolean(),
  reviewed: z.boolean(),
  telegram: z.object({ linked: z.boolean() }).optional(),
  max: z.object({ linked: z.boolean() }).optional(),
  change: z
    .object({
      allowed: z.boolean(),
      reason: z.string().optional(),
      until: isoDate,
      anyCabin: z.boolean(),
      cabins: z.array(z.object({ id: z.number().int(), name: z.string() })).optional(),
      pending: z
        .object({
          checkIn: isoDate,
          checkOut: isoDate,
          cabinId: z.number().int(),
          due: kopecks,
          holdUntil: z.string(),
          confirmationUrl: z.string(),
        })
        .optional(),
    })
    .optional(),
});

/** GET /api/guest/{token}/change: the new stay as priced, and what it pays (`due`) or gives back (`refund`), in kopecks. */
export const changeQuoteAnswer = z.object({
  quote: z.object({ nights: z.number().int(), total: roubles, lines: z.array(priceLineAnswer) }),
  cabin: z.object({ id: z.number().int(), name: z.string() }),
  difference: roubles,
  due: kopecks,
  refund: kopecks,
});
/** POST /api/guest/{token}/change: moved at once, or the new nights held while the difference is paid. */
export const changeAnswer = z.object({
  status: z.enum(['confirmed', 'awaiting_payment']),
  checkIn: isoDate,
  checkOut: isoDate,
  due: kopecks.optional(),
  refunded: kopecks.optional(),
  confirmationUrl: z.string().optional(),
  holdUntil: z.string().optional(),
});

/** A review as the public reads it (GET /api/reviews/approved): no e-mail. */
export const publicReviewAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  rating: z.number().int(),
  comment: z.string(),
  approved: z.boolean(),
  created_at: z.string(),
  verifiedStay: z.boolean(),
});
export const publicReviewsAnswer = z.array(publicReviewAnswer);

/** A review as the owner reads it (GET /api/reviews, PUT /api/reviews/{id}). */
export const reviewAnswer = publicReviewAnswer.extend({ email: z.string(), bookingId: z.number().int().nullable() });

/** POST /api/reviews: waiting for moderation. */
export const reviewCreatedAnswer = z.object({ success: z.literal(true), id: z.number().int(), approved: z.boolean() });

/** GET /api/health: 200 with the live site's version, or 503 with the reason. */
export const healthAnswer = z.object({
  ok: z.literal(true),
  contentVersion: z.number().int(),
  builtAt: z.string().nullable(),
});
export const healthDownAnswer = z.object({ ok: z.literal(false), error: z.string() });

// ——— The owner's day («Сегодня»).

const instant = z.string().nullable();
/** A confirmed stay in «Сегодня»: who, where, when (with the site's check-in and check-out times) and the money. */
export const dayStayAnswer = z.object({
  id: z.number().int(),
  cabinId: z.number().int(),
  cabinName: z.string(),
  name: z.string(),
  phone: z.string(),
  guests: z.number().int(),
  checkIn: isoDate,
  checkOut: isoDate,
  /** The day the guest left, once marked (before checkOut: an early departure). */
  departedOn: isoDate.nullable(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  arrivedAt: instant,
  departedAt: instant,
  total: roubles,
  /** What the guest has paid, refunds taken off, and what is left to pay: kopecks. */
  paid: kopecks,
  toPay: kopecks,
});
/** A task at a cabin; a departure's cleaning names its booking. */
export const taskAnswer = z.object({
  id: z.number().int(),
  cabinId: z.number().int(),
  cabinName: z.string(),
  due: isoDate,
  kind: z.enum(['cleaning', 'repair', 'other']),
  note: z.string(),
  done: z.boolean(),
  doneAt: instant,
  /** Where the photo taken when it was done is seen (GET /api/admin/tasks/{id}/photo?v=…), or null. */
  photo: z.string().nullable(),
  bookingId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const taskListAnswer = z.array(taskAnswer);
/** GET /api/admin/today: the day and the next. Deposits are not taken yet: the list is empty. */
export const todayAnswer = z.object({
  date: isoDate,
  next: isoDate,
  arrivals: z.array(dayStayAnswer),
  departures: z.array(dayStayAnswer),
  staying: z.array(dayStayAnswer),
  tasks: taskListAnswer,
  deposits: z.array(depositView.extend({ bookingId: z.number().int(), cabinName: z.string(), guestName: z.string() })),
});
/** PUT /api/admin/bookings/{id}/stay: the marks as they now are, and whether this request made them. */
export const stayAnswer = z.object({
  id: z.number().int(),
  arrivedAt: instant,
  departedAt: instant,
  departedOn: isoDate.nullable(),
  checkIn: isoDate,
  checkOut: isoDate,
  changed: z.boolean(),
});
