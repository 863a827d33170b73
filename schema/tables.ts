import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CABIN_DEFAULTS, DEFAULT_ADMIN_PATH, DEFAULT_RATING } from './constants.ts';
import type { AuditOutcome, Role } from './account.ts';
import type { PriceLine } from './payment-options.ts';
import type { ChildrenRule, PetsRule } from './pricing.ts';
import type { BookingSource } from './visits.ts';
import type { TaskKind } from './tasks.ts';

export const cabins = sqliteTable('cabins', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  description: text('description').notNull(),
  pricePerNight: integer('price_per_night').notNull(),
  location: text('location').notNull().default(''),
  distanceToSea: text('distance_to_sea').notNull().default(''),
  bedrooms: integer('bedrooms').notNull().default(CABIN_DEFAULTS.bedrooms),
  bathrooms: integer('bathrooms').notNull().default(CABIN_DEFAULTS.bathrooms),
  maxGuests: integer('max_guests').notNull().default(CABIN_DEFAULTS.maxGuests),
  amenities: text('amenities', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  images: text('images', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  featured: integer('featured', { mode: 'boolean' }).notNull().default(CABIN_DEFAULTS.featured),
  active: integer('active', { mode: 'boolean' }).notNull().default(CABIN_DEFAULTS.active),
  // Prices the way owners sell (schema/pricing.ts). Weekend nights' price (null: as on
  // weekdays) and which nights count as the weekend (ISO weekday of the night's date).
  weekendPricePerNight: integer('weekend_price_per_night'),
  weekendNights: text('weekend_nights', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[5,6]'`),
  /** Guests the price includes (null: every guest the cabin takes); each further one pays extraGuestPerNight. */
  baseGuests: integer('base_guests'),
  extraGuestPerNight: integer('extra_guest_per_night').notNull().default(0),
  /** The deposit held on the guest's card before arrival, in roubles; 0: none. */
  deposit: integer('deposit').notNull().default(0),
  /** How children are priced by age (schema/pricing.ts ChildrenRule); all zero: as adults. */
  children: text('children', { mode: 'json' })
    .$type<ChildrenRule>()
    .notNull()
    .default(sql`'{"freeUnderAge":0,"sharePercentUntilAge":0,"sharePercent":0}'`),
  /** Whether pets may come and their fee (schema/pricing.ts PetsRule). */
  pets: text('pets', { mode: 'json' })
    .$type<PetsRule>()
    .notNull()
    .default(sql`'{"allowed":false,"fee":0,"per":"stay"}'`),
});

export const reviews = sqliteTable(
  'reviews',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    rating: integer('rating').notNull().default(DEFAULT_RATING),
    comment: text('comment').notNull(),
    approved: integer('approved', { mode: 'boolean' }).notNull().default(false),
    // The API names this field created_at, so the column keeps that name. ISO 8601 in UTC.
    created_at: text('created_at').notNull(),
    /**
     * The stay it was written about, when sent through the link the guest got after departure
     *: «Гость проживал(а)». One review per booking; null for every other review.
     */
    bookingId: integer('booking_id'),
    verifiedStay: integer('verified_stay', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('reviews_public_idx').on(t.approved, t.created_at), uniqueIndex('reviews_booking_idx').on(t.bookingId)],
);

/**
 * One row per settings field, its value JSON-encoded. A row per field (rather than one JSON
 * document) lets concurrent partial saves of different fields all survive.
 * Nested contactInfo fields are stored under keys like `contactInfo.phone`.
 */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The admin path of the panel (one row, id 1). Who may sign in is in `users`: this table kept only
 * the path when the single account moved there, since every unknown page reads it.
 */
export const adminAccount = sqliteTable('admin_account', {
  id: integer('id').primaryKey(),
  adminPath: text('admin_path').notNull().default(DEFAULT_ADMIN_PATH),
});

/**
 * The people who sign in to the panel: the owner, who may do anything, and managers
 * (schema/account.ts ROLES). Two-factor sign-in by TOTP: `totpSecret` (base32) once enabled,
 * `totpPendingSecret` between «set up» and the first code; `recoveryCodes` are SHA-256 hashes of
 * the one-time codes not yet spent; `totpLastStep` the 30-second step of the last code taken, so
 * no code is accepted twice. Times in ms.
 */
export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role').$type<Role>().notNull(),
  totpSecret: text('totp_secret'),
  totpPendingSecret: text('totp_pending_secret'),
  recoveryCodes: text('recovery_codes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  totpLastStep: integer('totp_last_step'),
  createdAt: integer('created_at').notNull(),
});

/**
 * Server-side admin sessions; only a SHA-256 of the cookie token is stored, and `id` is what the
 * panel names a session by («Аккаунт» → sessions), never the token or its hash. Times in ms;
 * `lastSeenAt` is renewed at most once a minute (SESSION_TOUCH_MS).
 */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId)],
);

/**
 * Browsers that signed in as a person (their device cookie; docs/security.md): only a SHA-256 of
 * the cookie's random token is kept, and every sign-in from it swaps it for a new one. A sign-in
 * from one is held back by its own wrong guesses, not by those typed at the login elsewhere.
 * Forgotten DEVICE_COOKIE_MS after its last sign-in (ms in `lastUsedAt`).
 */
export const knownDevices = sqliteTable('known_devices', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  tokenHash: text('token_hash').notNull().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastUsedAt: integer('last_used_at').notNull(),
});

/**
 * «Журнал»: every admin write, sign-in and refusal, kept a year. Nothing in the API
 * edits or deletes a row; the schedule's upkeep forgets the ones past a year. `actor` is the
 * username at the time (the user may be renamed or deleted later); `action` the route
 * («PUT /api/cabins/:id»), `kind` its part of the panel (schema/account.ts AUDIT_KINDS);
 * `before` and `after` are JSON with every secret replaced by «***».
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    actorId: integer('actor_id'),
    actor: text('actor').notNull(),
    ip: text('ip').notNull().default(''),
    action: text('action').notNull(),
    kind: text('kind').notNull(),
    description: text('description').notNull().default(''),
    target: text('target'),
    /** ok, denied (a manager on an owner's route) or failed (a wrong password or code). */
    outcome: text('outcome').$type<AuditOutcome>().notNull().default('ok'),
    before: text('before', { mode: 'json' }),
    after: text('after', { mode: 'json' }),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/**
 * Counters of the rate limits, by key («what:who»): fixed windows for reviews, bookings and
 * quotes (`hit`); for guesses at a secret (`countGuess`) `windowStart` is the last wrong guess.
 */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * The public pages' own counting, with no cookie and nothing of the visitor kept: how many
 * beacons of a kind a page got from a source on a Moscow day. The caps of schema/visits.ts keep
 * the rows of a day bounded whatever is sent.
 */
export const visitCounts = sqliteTable(
  'visit_counts',
  {
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    source: text('source').notNull(),
    path: text('path').notNull(),
    /** The cabin of a card, dates or request beacon; 0 for none. */
    cabinId: integer('cabin_id').notNull().default(0),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.source, t.path, t.cabinId] })],
);

/**
 * visit_counts summed by source (all pages and cabins together), and by cabin (all sources and
 * pages together), each count in its day's row and its month's row (`day` = 'm2025-07', sorting
 * after every day): what «Сводка»'s funnel reads. A year of visit_counts at 5,000 visits a day is a
 * million rows, too many to sum on each opening; these are the few hundred a day the funnel's
 * figures need. Kept by triggers on visit_counts (migrations/0018_visit_rollups.sql), so every
 * write to the counting moves them in the same statement.
 */
export const visitSources = sqliteTable(
  'visit_sources',
  {
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    source: text('source').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.source] })],
);
export const visitCabins = sqliteTable(
  'visit_cabins',
  {
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    cabinId: integer('cabin_id').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.cabinId] })],
);

/**
 * The day's salt of the hash a beacon's sender is limited by: one row, replaced on the first
 * beacon of a new Moscow day, so yesterday's hashes can no longer be made again.
 */
export const visitSalt = sqliteTable('visit_salt', {
  day: text('day').primaryKey(),
  salt: text('salt').notNull(),
});

/** Small facts about the site itself, such as the version of public content. */
export const siteState = sqliteTable('site_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * One row whose token changes with every write to the tables public reads are made from
 * (migrations/0005_data_stamp.sql: a trigger on each). A kept answer to a public read is given
 * again only while the token is the one it was made under, whoever wrote: this worker, another
 * isolate, the cron, a restore. The tables left out change with signing in and throttling only.
 */
export const dataStamp = sqliteTable('data_stamp', {
  id: integer('id').primaryKey(),
  token: text('token').notNull(),
});
/** Tables no public read is made from, so their writes keep the stamp (the people who sign in, their sessions and the record of their changes; the Avito account and each link's exchange state change every few minutes; alerts and the messages waiting to go are the owner's; promo codes are checked live, never in a kept answer; a cabin's arrival instructions are shown only on a guest's own page; a guest's Telegram or MAX chat, their one-time link codes and the bots' updates already taken belong to one booking's messages; so do the conversations with guests, read only in the panel; the owner's tasks (cleaning, repairs) are shown only in the panel). */
export const UNSTAMPED_TABLES = [
  'users',
  'admin_sessions',
  'known_devices',
  'audit_log',
  'rate_limits',
  'data_stamp',
  'avito_account',
  'channel_links',
  'conflict_alerts',
  'outbox',
  'promo_codes',
  'cabin_instructions',
  'guest_chats',
  'guest_link_codes',
  'telegram_updates',
  'guest_max_chats',
  'max_updates',
  'threads',
  'messages',
  // The public pages' counting: only «Сводка» reads it, never a public page.
  'visit_counts',
  'visit_sources',
  'visit_cabins',
  'visit_salt',
  'tasks',
  // Who cleans which cabin, and the cleaners' sign-in links: the panel's alone.
  'cleaner_cabins',
  'sign_in_links',
  // Where cleaners get their morning list: the schedule's and the panel's alone.
  'cleaner_chats',
  'cleaner_link_codes',
  // What search engines were last told of the pages: the schedule's and «Продвижение»'s alone.
  'indexnow_state',
  // The SMS money of the month and of each message: the panel's and the outbox's alone.
  'sms_budget',
  'sms_spends',
  // Deposits held on guests' cards: the guest's page and the panel read them, never a public page.
  'deposits',
] as const;

export type Cabin = typeof cabins.$inferSelect;
export type Review = typeof reviews.$inferSelect;

// ——— Calendar (docs/api.md «Calendar and booking»). Dates are `YYYY-MM-DD` (schema/dates.ts);
// every range is the nights [start, end), end exclusive.

/** A cabin's calendar settings: the minimum stay outside seasons, the secret export address. */
export const cabinCalendars = sqliteTable('cabin_calendars', {
  cabinId: integer('cabin_id')
    .primaryKey()
    .references(() => cabins.id, { onDelete: 'cascade' }),
  minNights: integer('min_nights').notNull().default(1),
  /** The capability in /api/ical/{token}.ics; replaced on request (the old address then 404s). */
  icalToken: text('ical_token').unique(),
  /**
   * A digest of what the export last held and since when (ISO): its ETag and Last-Modified, so a
   * platform that reads it every few minutes gets 304 until a night changes.
   */
  exportHash: text('export_hash'),
  exportChangedAt: text('export_changed_at'),
});

/** A period with its own price per night and minimum stay; a cabin's seasons never overlap. */
export const seasons = sqliteTable(
  'seasons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    start: text('start').notNull(),
    end: text('end').notNull(),
    pricePerNight: integer('price_per_night').notNull(),
    minNights: integer('min_nights').notNull().default(1),
    /** The season's weekend nights' price; null: as its other nights. */
    weekendPricePerNight: integer('weekend_price_per_night'),
    /** ISO weekdays (1–7) no stay may arrive on, or leave on, in this season. */
    closedToArrival: text('closed_to_arrival', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
    closedToDeparture: text('closed_to_departure', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
    /** The longest stay beginning in this season; null: no limit of its own. */
    maxNights: integer('max_nights'),
  },
  (t) => [index('seasons_cabin_idx').on(t.cabinId, t.start)],
);

/** A single night's own price (New Year's Eve): it overrides seasons and weekends. */
export const datePrices = sqliteTable(
  'date_prices',
  {
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    date: text('date').notNull(),
    price: integer('price').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cabinId, t.date] })],
);

/** Paid extras the guest ticks on the booking card (the баня, a transfer, breakfast); some are mandatory. */
export const extras = sqliteTable('extras', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  price: integer('price').notNull(),
  /** stay, night, guest or guestNight (schema/pricing.ts EXTRA_PER). */
  per: text('per').notNull(),
  mandatory: integer('mandatory', { mode: 'boolean' }).notNull().default(false),
  /** The cabins that offer it; null: every cabin. */
  cabinIds: text('cabin_ids', { mode: 'json' }).$type<number[] | null>(),
  position: integer('position').notNull().default(0),
  /**
   * ordinary, earlyCheckIn or lateCheckOut (schema/pricing.ts EXTRA_KINDS): an early check-in is
   * offered only when the night before is free, a late check-out only when the check-out's night is.
   */
  kind: text('kind').notNull().default('ordinary'),
  /** The hour an early check-in or a late check-out gives ('10:00', '18:00'); null for an ordinary extra. */
  time: text('time'),
});

/**
 * The owner's promo codes: a percentage or an amount off a stay, valid between dates, for stays
 * between dates, with a number of uses. `uses` counts bookings stored with the code.
 */
export const promoCodes = sqliteTable('promo_codes', {
  code: text('code').primaryKey(),
  percent: integer('percent'),
  amount: integer('amount'),
  validFrom: text('valid_from'),
  validTo: text('valid_to'),
  stayFrom: text('stay_from'),
  stayTo: text('stay_to'),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
});

/** Nights the owner closed by hand (booked by phone, repairs). */
export const calendarBlocks = sqliteTable(
  'calendar_blocks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    start: text('start').notNull(),
    end: text('end').notNull(),
    note: text('note').notNull().default(''),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('blocks_cabin_idx').on(t.cabinId, t.start)],
);

/** A calendar of another platform (Sutochno, Avito, RealtyCalendar, Airbnb, Google) imported for a cabin. */
export const calendarFeeds = sqliteTable('calendar_feeds', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  cabinId: integer('cabin_id')
    .notNull()
    .references(() => cabins.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  url: text('url').notNull(),
  lastSyncAt: text('last_sync_at'),
  lastSuccessAt: text('last_success_at'),
  /** The last attempt's error in Russian; null after a success. */
  lastError: text('last_error'),
  eventCount: integer('event_count').notNull().default(0),
  /** The feed's validators from its last good answer, sent back as If-None-Match / If-Modified-Since. */
  etag: text('etag'),
  lastModified: text('last_modified'),
  /** The error the owner was last alerted of, so a feed that stays broken alerts once, not every 5 minutes. */
  alertedError: text('alerted_error'),
});

/** The busy ranges of a feed's last good import; replaced whole in one batch on each success. */
export const feedEvents = sqliteTable(
  'feed_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    feedId: integer('feed_id')
      .notNull()
      .references(() => calendarFeeds.id, { onDelete: 'cascade' }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    start: text('start').notNull(),
    end: text('end').notNull(),
  },
  (t) => [index('feed_events_cabin_idx').on(t.cabinId, t.start)],
);

// ——— Channels (docs/api.md «Channels»): Avito through its API.

/** The owner's Avito account for its API (one row, id 1). The secret never leaves the server. */
export const avitoAccount = sqliteTable('avito_account', {
  id: integer('id').primaryKey(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  userId: integer('user_id').notNull(),
  /** The last token Avito gave, kept until it expires (ms). */
  accessToken: text('access_token'),
  tokenExpiresAt: integer('token_expires_at'),
  /** Why the account itself failed last (a revoked key), in Russian; null while it works. */
  lastError: text('last_error'),
  connectedAt: text('connected_at').notNull(),
  // ——— Avito's chats (worker/channels/avito-chats.ts).
  /** Avito's own words refusing the Messenger API to the account (a 403: its plan); null while allowed. */
  chatsRefused: text('chats_refused'),
  /** Why reading or answering chats failed last (401, 429, no answer), in Russian; null after a success. */
  chatsError: text('chats_error'),
  /** Failures of the chats in a row, and when to try them again (ms): their backoff. */
  chatsFailures: integer('chats_failures').notNull().default(0),
  chatsRetryAt: integer('chats_retry_at'),
  /** The secret of the webhook's path (/api/hooks/avito/{secret}), and the address Avito last took. */
  hookSecret: text('hook_secret'),
  hookUrl: text('hook_url'),
});

/**
 * A cabin's listing on Avito and how its exchange went. `pushedBusy`/`pushedPrices` are what Avito
 * last accepted (a digest), so a change is pushed once, by whoever notices it first.
 */
export const channelLinks = sqliteTable('channel_links', {
  cabinId: integer('cabin_id')
    .primaryKey()
    .references(() => cabins.id, { onDelete: 'cascade' }),
  avitoItemId: integer('avito_item_id').notNull(),
  pushedBusy: text('pushed_busy'),
  pushedPrices: text('pushed_prices'),
  lastPushAt: text('last_push_at'),
  lastPullAt: text('last_pull_at'),
  /** The last failure in Russian (cause and what to do); null after a success. */
  lastError: text('last_error'),
  /** Failures in a row, and when to try again (ms): the backoff of a failing push or pull. */
  failures: integer('failures').notNull().default(0),
  retryAt: integer('retry_at'),
});

/** A booking made on another platform and read through its API (Avito's, unpaid ones included): busy here. */
export const channelStays = sqliteTable(
  'channel_stays',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    externalId: text('external_id').notNull(),
    start: text('start').notNull(),
    end: text('end').notNull(),
    guests: integer('guests').notNull().default(0),
    /** The platform's price of the stay, in roubles. */
    price: integer('price').notNull().default(0),
    /** The platform's own word: active, pending (not paid yet). */
    status: text('status').notNull(),
    guestName: text('guest_name').notNull().default(''),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('channel_stays_cabin_idx').on(t.cabinId, t.start),
    uniqueIndex('channel_stays_external_idx').on(t.channel, t.externalId),
  ],
);

/** Conflicts (nights claimed by two stays) the owner was alerted of: each is alerted once. */
export const conflictAlerts = sqliteTable('conflict_alerts', {
  key: text('key').primaryKey(),
  alertedAt: text('alerted_at').notNull(),
});

export type ChannelLink = typeof channelLinks.$inferSelect;
export type ChannelStay = typeof channelStays.$inferSelect;
export type AvitoAccountRow = typeof avitoAccount.$inferSelect;

export type Season = typeof seasons.$inferSelect;
export type ExtraRow = typeof extras.$inferSelect;
export type PromoCode = typeof promoCodes.$inferSelect;
export type CalendarBlock = typeof calendarBlocks.$inferSelect;
export type CalendarFeed = typeof calendarFeeds.$inferSelect;

// ——— Booking requests (docs/api.md «Calendar and booking»). A request holds personal
// data (name, phone, e-mail): the privacy page says what is kept and for how long.

/** A visitor's request for a stay; confirmed ones make their nights busy. */
export const bookings = sqliteTable(
  'bookings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    checkIn: text('check_in').notNull(),
    checkOut: text('check_out').notNull(),
    nights: integer('nights').notNull(),
    guests: integer('guests').notNull(),
    /** Computed by the server from the seasons when the request came in, in rubles. */
    total: integer('total').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email').notNull().default(''),
    comment: text('comment').notNull().default(''),
    /** How the visitor went on: whatsapp, telegram, max or phone. */
    channel: text('channel').notNull(),
    /** new, confirmed, declined or cancelled (schema/bookings.ts). */
    status: text('status').notNull().default('new'),
    /**
     * The confirmation e-mailed to the guest on confirming (self-hosted, with SMTP): 'sent',
     * 'failed', or '' when none was tried (no e-mail left, no SMTP). Kept so «Заявки» still
     * says it after a reload.
     */
    confirmationMail: text('confirmation_mail').notNull().default(''),
    /** The priced stay (schema/payment-options.ts priceStay): nights by season, fee, tax; they sum to total. */
    lines: text('lines', { mode: 'json' }).$type<PriceLine[]>().notNull().default(sql`'[]'`),
    /** The promo code the stay was priced with, or null. */
    promoCode: text('promo_code'),
    /**
     * Whether the code's use is counted for this booking: from the moment its nights are held for
     * payment or the owner confirms it, until a hold ends unpaid. A request that is never confirmed
     * does not use up a limited code (worker/transitions/promo.ts).
     */
    promoClaimed: integer('promo_claimed', { mode: 'boolean' }).notNull().default(false),
    /** The extras priced in (ids of extras at the time), for «Заявки» and the guest's page. */
    extras: text('extras', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
    /** The children's ages (`guests` counts the adults) and whether pets come, as the guest gave them. */
    childrenAges: text('children_ages', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
    pets: integer('pets', { mode: 'boolean' }).notNull().default(false),
    /**
     * The hour of an early check-in ('10:00') or a late check-out ('18:00') the stay was priced
     * with, or null. Either makes the neighbouring night busy for others (queries/bookings.ts nightsBusy).
     */
    earlyCheckIn: text('early_check_in'),
    lateCheckOut: text('late_check_out'),
    /** awaiting_payment: the instant (ISO, UTC) until which its nights are held for the guest paying. */
    holdUntil: text('hold_until'),
    /**
     * The key of the guest's own page (/b/{token}) and of the return from ЮKassa's page:
     * 36 hex digits, every booking has one (migration 0009 gave the older ones theirs).
     */
    guestToken: text('guest_token'),
    /** Who cancelled it ('guest' on their page, 'owner' in «Заявки»), once cancelled. */
    cancelledBy: text('cancelled_by'),
    cancelledAt: text('cancelled_at'),
    /** Where the visit that made it came from (schema/visits.ts): its link's tags and the referring host; null when unknown. */
    source: text('source', { mode: 'json' }).$type<BookingSource>(),
    /** «Заехал» and «Выехал» in «Сегодня»: when the owner or a manager marked them (ISO, UTC), once each. */
    arrivedAt: text('arrived_at'),
    departedAt: text('departed_at'),
    /**
     * The day the guest left (YYYY-MM-DD, never after checkOut). Before checkOut it is an early
     * departure: the nights from it on are free again (worker/queries/bookings.ts stayEnd).
     */
    departedOn: text('departed_on'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('bookings_cabin_idx').on(t.cabinId, t.status, t.checkIn),
    index('bookings_created_idx').on(t.createdAt),
    uniqueIndex('bookings_guest_token_idx').on(t.guestToken),
    // The owner's reports, read from the index alone: a period's stays (nights sold) and
    // its arrivals (money, lead time), of every cabin at once.
    index('bookings_stay_idx').on(t.status, t.checkIn, t.checkOut, t.cabinId),
    index('bookings_arrival_idx').on(t.checkIn, t.status, t.cabinId, t.total, t.nights, t.createdAt),
    // A stay's end (worker/queries/bookings.ts stayEnd): «Сегодня»'s departures and their
    // cleanings, read every time the tab opens, without a pass over every past stay.
    index('bookings_end_idx').on(t.status, sql`coalesce(departed_on, check_out)`),
  ],
);

export type Booking = typeof bookings.$inferSelect;

/**
 * A prepayment through ЮKassa: its id is ЮKassa's. Amounts in kopecks. The status is
 * only ever what ЮKassa's API answered when re-read, never a notification's word.
 * A record of money, kept for the tax office: its booking has no ON DELETE action, so the
 * database itself refuses to delete a booking that has a payment (the API answers 409 first).
 */
export const payments = sqliteTable(
  'payments',
  {
    id: text('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    amount: integer('amount').notNull(),
    /** ЮKassa's: pending, waiting_for_capture, succeeded, canceled. */
    status: text('status').notNull(),
    confirmationUrl: text('confirmation_url').notNull().default(''),
    /** The refund, once asked for: its ЮKassa id and status (pending, succeeded, canceled). */
    refundId: text('refund_id'),
    refundStatus: text('refund_status'),
    /** Why it was refunded: 'owner' (the owner cancelled), 'late' (paid after the hold ran out) or 'guest' (cancelled on the guest's page, by the policy). */
    refundReason: text('refund_reason'),
    /** What is (to be) refunded, in kopecks: null means the whole amount. Set before ЮKassa is asked, so a retry asks for the same. */
    refundAmount: integer('refund_amount'),
    /** 'prepayment' (held nights, confirmed when paid) or 'balance' (the rest, paid from the guest's page). */
    kind: text('kind').notNull().default('prepayment'),
    /** The settlement receipt at check-in (54-ФЗ, «Чеки от ЮKassa»): '' not yet, 'sent', 'failed'. */
    settlementReceipt: text('settlement_receipt').notNull().default(''),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('payments_booking_idx').on(t.bookingId),
    // What a period's bookings were paid and refunded (the reports of «Сводка»), from the index alone.
    index('payments_money_idx').on(t.bookingId, t.status, t.amount, t.refundId, t.refundStatus, t.refundAmount),
  ],
);

export type Payment = typeof payments.$inferSelect;

/**
 * A message to the owner waiting to go, one row per channel (Telegram, e-mail, MAX): kept until
 * sent, so an alert survives a restart and an outage of hours (worker/notify/outbox.ts). Times in
 * ms; the text may name a guest, so sent rows are erased after a week.
 */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** While a sender holds the row (ms): nobody else sends it meanwhile. */
    leaseUntil: integer('lease_until'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
    /** Still unsent after days of trying, or its channel was switched off: not tried again. */
    givenUpAt: integer('given_up_at'),
    /**
     * A message to a guest: its booking, which of the messages it is (confirmation,
     * reminder, review; one of each per booking) and the address. Null for the owner's alerts.
     */
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    kind: text('kind'),
    recipient: text('recipient'),
    /**
     * Which event of its kind the message is about, where a booking can have several (a refund's
     * message names its payment); '' where there is one per booking. One row per event, booking and
     * channel: a transition that is repeated or raced writes its messages once.
     */
    event: text('event').notNull().default(''),
    /**
     * How many parts of a text the platform takes only in parts (MAX: MAX_TEXT_LIMIT each) have
     * gone, each noted as it goes: a try after a failure resumes at the next part, so the guest
     * never gets one twice.
     */
    partsSent: integer('parts_sent').notNull().default(0),
  },
  (t) => [
    index('outbox_due_idx').on(t.sentAt, t.nextAttemptAt),
    uniqueIndex('outbox_booking_event_idx').on(t.bookingId, t.kind, t.channel, t.event),
    // The schedule's own messages with no booking of theirs (a cabin not clean before an arrival,
    // a cleaner's list of the day): one per event and channel, so two runs at once keep one.
    uniqueIndex('outbox_daily_event_idx')
      .on(t.kind, t.channel, t.event)
      .where(sql`booking_id is null and kind in ('not-clean', 'cleaner-day')`),
  ],
);
export type OutboxRow = typeof outbox.$inferSelect;

/**
 * What IndexNow was last told (worker/indexnow/): one row, id 1. `pages` is the JSON of the live
 * site's pages and their digests as last queued (schema/site-pages.ts), `manifest` a digest of it:
 * the queueing batch writes only where `manifest` is still the one it read, so runs racing over the
 * same publish queue its addresses once. `sentAt` (ms) and `sentUrls`: the last send the search
 * engine took, kept here because the outbox forgets its rows after a week.
 */
export const indexnowState = sqliteTable('indexnow_state', {
  id: integer('id').primaryKey(),
  manifest: text('manifest').notNull(),
  pages: text('pages').notNull(),
  sentAt: integer('sent_at'),
  sentUrls: integer('sent_urls'),
});

/** What the owner tells a cabin's guests once their stay is confirmed: check-in, keys, Wi-Fi. Never public. */
export const cabinInstructions = sqliteTable('cabin_instructions', {
  cabinId: integer('cabin_id')
    .primaryKey()
    .references(() => cabins.id, { onDelete: 'cascade' }),
  text: text('text').notNull().default(''),
});

// ——— Guests' messages in Telegram (docs/api.md «Messengers»). The owner's bot token is kept in
// site_state (worker/queries/telegram-bot.ts), never in the public settings.

/**
 * A guest's Telegram chat tied to their booking: every automatic message of the booking also goes
 * there. `consent` is the wording the guest saw beside the button they tapped (a cross-border
 * transfer: Telegram's servers are abroad). The guest's «стоп» deletes the row; so does the
 * booking's erasure. Times in ms.
 */
export const guestChats = sqliteTable(
  'guest_chats',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    chatId: text('chat_id').notNull(),
    consent: text('consent').notNull(),
    linkedAt: integer('linked_at').notNull(),
  },
  (t) => [index('guest_chats_chat_idx').on(t.chatId)],
);

/**
 * A one-time code of a link to the bot, made by the guest's tap: only its SHA-256 is kept (the
 * code travels through Telegram's servers), good for 30 minutes and once. `usedBy` is the update
 * that used it, so the batch that used it also ties the chat.
 */
export const guestLinkCodes = sqliteTable(
  'guest_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    consent: text('consent').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    usedBy: integer('used_by'),
    /** The messenger the code opens: 'telegram' or 'max'; a code of one is nothing to the other's bot. */
    channel: text('channel').notNull().default('telegram'),
  },
  (t) => [index('guest_link_codes_expires_idx').on(t.expiresAt)],
);

/**
 * The updates of the guests' bot already taken, by the bot's id and Telegram's update_id: the
 * webhook may be called twice with one update, and polling may read one again after a restart;
 * each acts once. Only the ids, never what the guest wrote.
 */
export const telegramUpdates = sqliteTable(
  'telegram_updates',
  {
    botId: integer('bot_id').notNull(),
    updateId: integer('update_id').notNull(),
    receivedAt: integer('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.botId, t.updateId] })],
);

// ——— Guests' messages in MAX, through the owner's MAX bot (the one of the alerts, site_state
// 'maxBot'): the same one-time link codes as Telegram (channel 'max').

/**
 * A guest's MAX dialog with the bot tied to their booking: every automatic message of the booking
 * also goes there. `userId` is the guest's MAX user id (messages go to `?user_id=`); `consent` the
 * wording beside the button they tapped. «стоп» deletes the row; so does the booking's erasure.
 */
export const guestMaxChats = sqliteTable(
  'guest_max_chats',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    consent: text('consent').notNull(),
    linkedAt: integer('linked_at').notNull(),
  },
  (t) => [index('guest_max_chats_user_idx').on(t.userId)],
);

/**
 * The MAX updates already taken, by a key of their own (a message's `mid`, a «Начать»'s user and
 * time): MAX may post one update twice, and the schedule may read one again; each acts once.
 * Only the keys, never what the guest wrote.
 */
export const maxUpdates = sqliteTable('max_updates', {
  key: text('key').primaryKey(),
  receivedAt: integer('received_at').notNull(),
});

// ——— Conversations with guests («Сообщения», docs/api.md «Conversations»).

/**
 * One conversation with a guest: a booking's chat on one channel. Its messages are in `messages`;
 * what it shows in the list (the guest's name, the newest message, how many are unread) is read
 * from them and from the booking. `readThrough` is the newest message the owner has read. The
 * booking's erasure takes the thread and its messages with it. Times in ms.
 */
export const threads = sqliteTable(
  'threads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** 'telegram' | 'max' | 'sms' | 'avito' | 'email' (schema/threads.ts THREAD_CHANNELS). */
    channel: text('channel').notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    /** The name the platform gave, for a thread without a booking; a booking's thread shows the booking's name. */
    guestName: text('guest_name').notNull().default(''),
    readThrough: integer('read_through').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    /**
     * A platform's own chat (an Avito chat): its id there, unique per channel, the cabin its listing
     * is, the platform's booking it is about (Avito's booking id), and the chat's last change as the
     * platform last told it (its `updated`, s), so a chat that did not change is not read again.
     */
    platformChatId: text('platform_chat_id'),
    cabinId: integer('cabin_id').references(() => cabins.id, { onDelete: 'set null' }),
    platformBookingId: text('platform_booking_id'),
    chatUpdated: integer('chat_updated'),
  },
  (t) => [
    uniqueIndex('threads_booking_idx').on(t.channel, t.bookingId),
    uniqueIndex('threads_platform_chat_idx').on(t.channel, t.platformChatId),
  ],
);
export type Thread = typeof threads.$inferSelect;

/**
 * A message of a thread, either way. A guest's message (`in`) is stored once by the platform's id
 * (`platformId`, unique per channel), however often the platform delivers it. A message to the
 * guest (`out`) is an outbox row's copy (`outboxId`), written and kept up to date by the triggers
 * of migrations/0015_threads.sql, so whatever the outbox sends to a guest's chat shows here with
 * its state: 'queued' until sent, 'sent', or 'failed' once given up (`error` the cause; a try that
 * failed and will be tried again stays 'queued' with its error). `kind` is the outbox's kind of an
 * `out` message: 'reply' for the owner's answer, else an automatic message. Times in ms.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    direction: text('direction').notNull(),
    platformId: text('platform_id'),
    kind: text('kind'),
    text: text('text').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    outboxId: integer('outbox_id'),
    at: integer('at').notNull(),
    sentAt: integer('sent_at'),
  },
  (t) => [
    uniqueIndex('messages_platform_idx').on(t.channel, t.platformId),
    uniqueIndex('messages_outbox_idx').on(t.outboxId),
    index('messages_thread_idx').on(t.threadId, t.id),
  ],
);
export type MessageRow = typeof messages.$inferSelect;
// ——— The owner's day («Сегодня», docs/api.md «The owner's day»).

/**
 * A job to do at a cabin on a day: a cleaning, a repair, anything else. A departure's cleaning is
 * not written when its booking is confirmed but derived from the booking when tasks are read
 * (worker/queries/tasks.ts): the row is made then for the booking and its departure day
 * (`bookingId`, `due`), and shown only while the booking is confirmed and still leaves that day.
 * So a cancelled booking's cleaning goes with it, and a moved or shortened stay gets its cleaning
 * on its new day, with nothing to undo. Rows the owner adds have no booking. Times ISO, UTC.
 */
export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
    due: text('due').notNull(),
    /** cleaning, repair or other (schema/tasks.ts TASK_KINDS). */
    kind: text('kind').$type<TaskKind>().notNull(),
    note: text('note').notNull().default(''),
    done: integer('done', { mode: 'boolean' }).notNull().default(false),
    doneAt: text('done_at'),
    /**
     * The media key of the photo the cleaner took when ticking it (null: none). Served only by
     * GET /api/admin/tasks/{id}/photo to who may see the task, never by the public /media/.
     */
    photo: text('photo'),
    /** The departure it cleans up after; null for a task the owner added. */
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('tasks_due_idx').on(t.due, t.cabinId), uniqueIndex('tasks_departure_idx').on(t.bookingId, t.due)],
);
export type Task = typeof tasks.$inferSelect;

// ——— SMS to guests who tied no messenger (schema/sms.ts, docs/operations.md «SMS for guests»).

/**
 * The month's SMS money (Europe/Moscow months, `YYYY-MM`), in kopecks: the owner's cap as it was
 * when a send last reserved, what the gateway charged (`spent`) and what sends under way hold
 * (`reserved`). A send reserves its price with one conditional write that keeps
 * `spent + reserved <= cap`, so two sends at once never pass the cap between them.
 */
export const smsBudget = sqliteTable('sms_budget', {
  month: text('month').primaryKey(),
  capKop: integer('cap_kop').notNull(),
  spentKop: integer('spent_kop').notNull().default(0),
  reservedKop: integer('reserved_kop').notNull().default(0),
});

/**
 * Each SMS's money: the price reserved before the send ('reserved'), then what the gateway
 * charged once it took the message ('spent'), or the reservation given back when it refused
 * ('released'). A record of money: never deleted, and it outlives its outbox row (no foreign key),
 * naming no guest. Times in ms.
 */
export const smsSpends = sqliteTable(
  'sms_spends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    outboxId: integer('outbox_id').notNull(),
    month: text('month').notNull(),
    amountKop: integer('amount_kop').notNull(),
    status: text('status').notNull(),
    costKop: integer('cost_kop'),
    smsId: text('sms_id'),
    createdAt: integer('created_at').notNull(),
    settledAt: integer('settled_at'),
  },
  (t) => [index('sms_spends_outbox_idx').on(t.outboxId)],
);

// ——— Cleaners: a role in `users` that sees the cleanings of its own cabins and nothing else.

/** The cabins a cleaner looks after: «Сегодня» shows them the tasks of these cabins alone. */
export const cleanerCabins = sqliteTable(
  'cleaner_cabins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cabinId: integer('cabin_id')
      .notNull()
      .references(() => cabins.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cabinId] }), index('cleaner_cabins_cabin_idx').on(t.cabinId)],
);

/**
 * A cleaner's private sign-in link (one per person; a new one replaces the old): only a SHA-256 of
 * its random token is kept, so the address is shown once, when made. Revoking deletes the row.
 * Time in ms.
 */
export const signInLinks = sqliteTable('sign_in_links', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: integer('created_at').notNull(),
});

/**
 * A chat where a cleaner gets the day's list each morning, by the owner's bot in Telegram
 * (`chatId` the chat) or MAX (`chatId` their MAX user id): one per cleaner and messenger. Tied by
 * the cleaner's one-time code (cleaner_link_codes); untied by the owner, by revoking the cleaner's
 * sign-in link, or with the person. Time in ms.
 */
export const cleanerChats = sqliteTable(
  'cleaner_chats',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    chatId: text('chat_id').notNull(),
    linkedAt: integer('linked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
);

/**
 * A cleaner's one-time code of a link to the owner's bot, as the guests' (guest_link_codes): only
 * its SHA-256 is kept, good for 30 minutes and once; `usedBy` names the use that tied the chat.
 */
export const cleanerLinkCodes = sqliteTable(
  'cleaner_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    usedBy: integer('used_by'),
  },
  (t) => [index('cleaner_link_codes_expires_idx').on(t.expiresAt)],
);

/**
 * A deposit: a ЮKassa payment (its id is the row's), held or paid. A hold (`mode` 'hold', made with
 * `capture: false`) moves pending → waiting_for_capture (held) → canceled (let go) or succeeded
 * (part kept). Where a hold cannot be used (the stay outlasts ЮKassa's 7 days, or the shop has no
 * two-stage payments) and the owner chose so, it is paid (`mode` 'paid', `capture: true`): pending →
 * succeeded, and the decision gives back all or the rest of it by one refund (refundId,
 * refundStatus). Apart from the stay's payments, so nothing that sums what a stay was paid counts
 * it. The owner's (or the schedule's) decision is written first, by a conditional write on an
 * undecided deposit, so of «Вернуть залог», «Удержать …» and the return by itself only one acts;
 * ЮKassa is then asked with a key naming that decision, again by the schedule until it answers.
 * A record of money: never deleted. Amounts in kopecks.
 */
export const deposits = sqliteTable(
  'deposits',
  {
    id: text('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    amount: integer('amount').notNull(),
    /** ЮKassa's: pending, waiting_for_capture, succeeded, canceled. */
    status: text('status').notNull(),
    confirmationUrl: text('confirmation_url').notNull().default(''),
    /** 'hold': blocked on the card; 'paid': charged, and given back after departure by a refund. */
    mode: text('mode', { enum: ['hold', 'paid'] })
      .notNull()
      .default('hold'),
    /** null until decided; 'release' (all back) or 'keep' (keptAmount captured, or kept of a paid one). */
    decision: text('decision'),
    /** Who decided: 'owner' or 'auto' (the schedule, before ЮKassa's limit). */
    decidedBy: text('decided_by'),
    keptAmount: integer('kept_amount'),
    /** Why part was kept, as the guest reads it on their page. */
    reason: text('reason'),
    /** ЮKassa's refusal of the decision, as the owner should read it; null once it went through. */
    error: text('error'),
    /** A paid deposit's refund of all or the rest, once ЮKassa made it, and its status (pending, succeeded, canceled). */
    refundId: text('refund_id'),
    refundStatus: text('refund_status'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('deposits_booking_idx').on(t.bookingId), index('deposits_status_idx').on(t.status, t.decision)],
);

export type Deposit = typeof deposits.$inferSelect;

/**
 * A guest's move of their stay to other dates (or another cabin) from their page. One that costs
 * less or the same is 'applied' at once, in the same conditional batch that moves the booking's
 * nights. One that costs more waits for the difference ('awaiting_payment'): until `holdUntil` its
 * new nights are busy for everyone else (worker/queries/bookings.ts nightsBusy) while the old ones
 * stay the guest's; paid in time, one batch moves the booking and ends the hold ('applied'), so the
 * nights are never both free nor both taken; not paid, it is 'expired' and the old dates stand.
 * A record of what the guest was charged or given back: never deleted. Money in kopecks.
 */
export const dateChanges = sqliteTable(
  'date_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    fromCabinId: integer('from_cabin_id').notNull(),
    fromCheckIn: text('from_check_in').notNull(),
    fromCheckOut: text('from_check_out').notNull(),
    fromTotal: integer('from_total').notNull(),
    toCabinId: integer('to_cabin_id').notNull(),
    toCheckIn: text('to_check_in').notNull(),
    toCheckOut: text('to_check_out').notNull(),
    toTotal: integer('to_total').notNull(),
    nights: integer('nights').notNull(),
    lines: text('lines', { mode: 'json' }).$type<PriceLine[]>().notNull().default(sql`'[]'`),
    /**
     * The extras the new stay was priced with (those the new cabin offers and its nights allow) and
     * the early check-in's and late check-out's hours among them: the booking takes them with the
     * new nights. Null `extras`: a change written before they were kept, which leaves the booking's own.
     */
    extras: text('extras', { mode: 'json' }).$type<number[]>(),
    earlyCheckIn: text('early_check_in'),
    lateCheckOut: text('late_check_out'),
    /** What the guest pays for the change, and what goes back to them (kopecks). */
    due: integer('due').notNull().default(0),
    refund: integer('refund').notNull().default(0),
    /** awaiting_payment, applied or expired. */
    status: text('status').notNull(),
    holdUntil: text('hold_until'),
    /** The ЮKassa payment of the difference (payments.kind 'change'). */
    paymentId: text('payment_id'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('date_changes_booking_idx').on(t.bookingId),
    index('date_changes_hold_idx').on(t.status, t.toCabinId, t.toCheckIn),
  ],
);
export type DateChange = typeof dateChanges.$inferSelect;
