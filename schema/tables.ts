import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CABIN_DEFAULTS, DEFAULT_ADMIN_PATH, DEFAULT_RATING } from './constants.ts';

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
});

export const reviews = sqliteTable('reviews', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  rating: integer('rating').notNull().default(DEFAULT_RATING),
  comment: text('comment').notNull(),
  approved: integer('approved', { mode: 'boolean' }).notNull().default(false),
  // SPEC.md names this field created_at; the API keeps that name. ISO 8601 in UTC.
  created_at: text('created_at').notNull(),
}, (t) => [index('reviews_public_idx').on(t.approved, t.created_at)]);

/**
 * One row per settings field, its value JSON-encoded. A row per field (rather than one JSON
 * document) lets concurrent partial saves of different fields all survive.
 * Nested contactInfo fields are stored under keys like `contactInfo.phone`.
 */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** The single administrator (id is always 1). */
export const adminAccount = sqliteTable('admin_account', {
  id: integer('id').primaryKey(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  adminPath: text('admin_path').notNull().default(DEFAULT_ADMIN_PATH),
});

/** Server-side admin sessions; only a SHA-256 of the cookie token is stored. Times in ms. */
export const adminSessions = sqliteTable('admin_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
});

/** Fixed-window counters for login throttling and review rate limits. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
});

/** Small facts about the site itself, such as the version of public content. */
export const siteState = sqliteTable('site_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export type Cabin = typeof cabins.$inferSelect;
export type Review = typeof reviews.$inferSelect;
