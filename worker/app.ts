import { depositRoutes } from './routes/deposits.ts';
import { Hono } from 'hono';
import { MSG } from '../schema/messages.ts';
import type { AppEnv } from './env.ts';
import { apiError, handleError } from './lib/errors.ts';
import { sameOriginWrites } from './middleware/same-origin.ts';
import { apiHeaders } from './middleware/security-headers.ts';
import { adminRoutes } from './routes/admin.ts';
import { onboardingRoutes } from './routes/onboarding.ts';
import { auditRoutes } from './routes/audit.ts';
import { beaconRoutes } from './routes/beacon.ts';
import { availabilityRoutes } from './routes/availability.ts';
import { bookingAdminRoutes, bookingRoutes } from './routes/bookings.ts';
import { buildInfoRoutes } from './routes/build-info.ts';
import { calendarAdminRoutes } from './routes/calendar-admin.ts';
import { channelRoutes } from './routes/channels.ts';
import { guestMessageRoutes } from './routes/guest-messages.ts';
import { pricingAdminRoutes, quoteRoutes } from './routes/pricing.ts';
import { reportRoutes } from './routes/reports.ts';
import { healthRoutes } from './routes/health.ts';
import { guestRoutes } from './routes/guest.ts';
import { icalRoutes } from './routes/ical.ts';
import { indexNowRoutes } from './routes/indexnow.ts';
import { instructionsAdminRoutes } from './routes/instructions.ts';
import { maxAdminRoutes } from './routes/max-admin.ts';
import { maxHookRoutes, messengerRoutes, telegramHookRoutes } from './routes/messengers.ts';
import { avitoHookRoutes } from './routes/avito-hooks.ts';
import { priceRoutes } from './routes/prices.ts';
import { replyTemplateRoutes } from './routes/reply-templates.ts';
import { occupancyRoutes } from './routes/occupancy.ts';
import { paymentAdminRoutes, paymentRoutes } from './routes/payments.ts';
import { searchRoutes } from './routes/search.ts';
import { cabinRoutes } from './routes/cabins.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { settingsRoutes } from './routes/settings.ts';
import { threadRoutes } from './routes/threads.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';
import { uploadRoutes } from './routes/upload.ts';
import { todayRoutes } from './routes/today.ts';
import { cleanerChatRoutes } from './routes/cleaner-chats.ts';
import { userRoutes } from './routes/users.ts';

/** The /api of docs/api.md; its type is what the typed client `hc<AppType>` reads. */
export const api = new Hono<AppEnv>()
  .basePath('/api')
  .use(apiHeaders, sameOriginWrites, async (c, next) => {
    await next();
    // Nothing is cached unless a route says otherwise (availability: a minute).
    if (!c.res.headers.has('cache-control')) c.header('cache-control', 'no-store');
  })
  .route('/cabins', cabinRoutes)
  .route('/cabins', availabilityRoutes)
  .route('/ical', icalRoutes)
  .route('/prices', priceRoutes)
  .route('/search', searchRoutes)
  .route('/admin', occupancyRoutes)
  .route('/admin', calendarAdminRoutes)
  .route('/admin', channelRoutes)
  .route('/admin', pricingAdminRoutes)
  .route('/quote', quoteRoutes)
  .route('/bookings', bookingRoutes)
  .route('/beacon', beaconRoutes)
  .route('/admin', bookingAdminRoutes)
  .route('/admin', todayRoutes)
  .route('/admin', cleanerChatRoutes)
  .route('/admin', depositRoutes)
  .route('/guest', guestRoutes)
  .route('/admin', instructionsAdminRoutes)
  .route('/admin', guestMessageRoutes)
  .route('/payments', paymentRoutes)
  .route('/admin', paymentAdminRoutes)
  .route('/reviews', reviewRoutes)
  .route('/settings', settingsRoutes)
  .route('/admin', userRoutes)
  .route('/admin', sessionRoutes)
  .route('/admin', twoFactorRoutes)
  .route('/admin', auditRoutes)
  .route('/admin', onboardingRoutes)
  .route('/admin', reportRoutes)
  .route('/admin', adminRoutes)
  .route('/admin/max', maxAdminRoutes)
  .route('/admin/messengers', messengerRoutes)
  .route('/admin', threadRoutes)
  .route('/admin', replyTemplateRoutes)
  .route('/admin', indexNowRoutes)
  .route('/hooks', telegramHookRoutes)
  .route('/hooks', avitoHookRoutes)
  .route('/hooks', maxHookRoutes)
  .route('/upload', uploadRoutes)
  .route('/build-info', buildInfoRoutes)
  .route('/health', healthRoutes);

api.notFound((c) => apiError(c, 404, MSG.notFound));
api.onError(handleError);

export type AppType = typeof api;
