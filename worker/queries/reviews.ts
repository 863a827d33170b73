import { desc, eq } from 'drizzle-orm';
import { bookings, reviews, type Review } from '../../schema/tables.ts';
import type { ReviewSubmit, ReviewUpdate } from '../../schema/reviews.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { now } from '../lib/clock.ts';

type DbEnv = { DB: DatabasePort };
/** What visitors see of a review: never the author's e-mail nor the booking it came from. */
export type PublicReview = Omit<Review, 'email' | 'bookingId'>;

const publicColumns = {
  id: reviews.id,
  name: reviews.name,
  rating: reviews.rating,
  comment: reviews.comment,
  approved: reviews.approved,
  created_at: reviews.created_at,
  verifiedStay: reviews.verifiedStay,
};

export async function listApprovedReviews(env: DbEnv): Promise<PublicReview[]> {
  return getDb(env)
    .select(publicColumns)
    .from(reviews)
    .where(eq(reviews.approved, true))
    .orderBy(desc(reviews.created_at), desc(reviews.id));
}

export async function listAllReviews(env: DbEnv): Promise<Review[]> {
  return getDb(env).select().from(reviews).orderBy(desc(reviews.created_at), desc(reviews.id));
}

/** A visitor's review always starts unapproved (На модерации). */
export async function submitReview(env: DbEnv, input: ReviewSubmit): Promise<Review> {
  const { name, email, rating, comment } = input;
  const [row] = await getDb(env)
    .insert(reviews)
    .values({ name, email, rating, comment, approved: false, created_at: new Date(now()).toISOString() })
    .returning();
  return row!;
}

/** The booking a review link's token belongs to: what decides whether its review is taken. */
export async function stayOfToken(env: DbEnv, token: string) {
  return getDb(env)
    .select({ id: bookings.id, status: bookings.status, checkOut: bookings.checkOut })
    .from(bookings)
    .where(eq(bookings.guestToken, token))
    .get();
}

/**
 * A review of a stay, through the guest's link: marked verified, unapproved like any other.
 * Undefined when the booking has one already: the unique booking_id keeps one of two racing.
 */
export async function submitStayReview(
  env: DbEnv,
  input: ReviewSubmit,
  bookingId: number,
): Promise<Review | undefined> {
  const { name, email, rating, comment } = input;
  const [row] = await getDb(env)
    .insert(reviews)
    .values({
      name,
      email,
      rating,
      comment,
      approved: false,
      created_at: new Date(now()).toISOString(),
      bookingId,
      verifiedStay: true,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function updateReview(env: DbEnv, id: number, patch: ReviewUpdate): Promise<Review | undefined> {
  const [row] = await getDb(env).update(reviews).set(patch).where(eq(reviews.id, id)).returning();
  return row;
}

/** The deleted review, or undefined when there was none. */
export async function deleteReview(env: DbEnv, id: number): Promise<Review | undefined> {
  const [row] = await getDb(env).delete(reviews).where(eq(reviews.id, id)).returning();
  return row;
}

export async function getReview(env: DbEnv, id: number): Promise<Review | undefined> {
  return getDb(env).select().from(reviews).where(eq(reviews.id, id)).get();
}
