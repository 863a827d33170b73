import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../schema/constants.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import app from '../../worker/index.ts';
import { createSession } from '../../worker/queries/sessions.ts';
import { MEDIA_CSP } from '../../worker/routes/media.ts';
import { sha256Hex } from '../../worker/lib/password.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  GIF,
  JPEG,
  PNG,
  login,
  MULTIPART_BOUNDARY,
  MULTIPART_TYPE,
  multipartBody,
  resetDataWithAdmin,
  sampleCabin,
  seedCabin,
  seedReview,
  send,
  snapshot,
  validBooking,
  validReview,
  type Api,
  type Booked,
  type Uploaded,
} from './helpers.ts';

/**
 * The bad-input corpus: every route of the worker gets hostile and broken requests, as a
 * visitor and (for admin-only routes) with a live admin session. Each refused request must be
 * a JSON 4xx whose text is one of our Russian messages (so never a stack trace or a
 * framework's English), and D1 and R2 must be exactly as before. Where a hostile string is
 * valid input (a review full of <script>), it must be stored verbatim, as text.
 *
 * Speed: storage is shared by the tests of this file, so the data is seeded once, requests of
 * one group go out 16 at a time, and D1 + R2 are snapshotted before and after each group (a
 * snapshot costs more than a request). A refused request cannot be undone by another refused
 * one, so an unchanged snapshot after the group means no request of it changed anything.
 */

const OWN_MESSAGES = new Set<string>(Object.values(MSG));
// A group of a hundred-odd requests takes a second or two; more when the suite loads the machine.
vi.setConfig({ testTimeout: 20_000 });

type State = {
  cookie: string;
  cabin: number;
  review: number;
  /** Session cookies that must never pass. */
  expiredCookie: string;
  loggedOutCookie: string;
  token: string;
  /** The seeded cabin's secret iCal export path. */
  icalPath: string;
  /** A booking request for the seeded cabin. */
  booking: number;
  /** The booking's thread in «Сообщения». */
  thread: number;
};
let s: State;

type Body = BodyInit | null | undefined;
type Case = {
  label: string;
  send: () => Promise<Response>;
  /** Allowed statuses. */
  status: number[];
  /** The exact error text, when it is certain. */
  error?: string;
  /** A success that is not JSON (a photo). */
  raw?: boolean;
};
type Role = 'visitor' | 'admin';

// ---------------------------------------------------------------------------------------------
// The routes: a spec per route, checked against the router itself below.

type RouteSpec = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  pattern: string;
  admin: boolean;
  /** A concrete path with the seeded ids. */
  path: () => string;
  /** With `:id`: the path with another id in its place. */
  withId?: (id: string) => string;
  /** What the route reads from the body. */
  body?: 'json' | 'multipart' | 'ignored';
  /** A body the route accepts: the base of every mutation. */
  valid?: () => Record<string, unknown>;
  /** Fields of `valid` that take any well-formed text (hostile text is stored verbatim). */
  freeText?: string[];
  /** String fields of `valid` that take only a format (e-mail, time, path): hostile text is refused. */
  strict?: string[];
  /** What the route reads from the query string: the parameters of a valid request. */
  query?: () => Record<string, string>;
  /** What a well-formed request answers, when not 200 (health: 503 here, where no site is built). */
  usual?: number[];
  /** Fields of `valid` where null is an answer of its own (an unlinked listing), not a wrong type. */
  nullable?: string[];
};

const ROUTES: RouteSpec[] = [
  { method: 'GET', pattern: '/api/cabins', admin: false, path: () => '/api/cabins', query: () => ({ page: '1' }) },
  {
    method: 'GET',
    pattern: '/api/cabins/:id',
    admin: false,
    path: () => `/api/cabins/${s.cabin}`,
    withId: (id) => `/api/cabins/${id}`,
  },
  {
    method: 'POST',
    pattern: '/api/cabins',
    admin: true,
    path: () => '/api/cabins',
    body: 'json',
    valid: () => ({ ...sampleCabin(), bedrooms: 2, bathrooms: 1, maxGuests: 4, featured: true, active: true }),
    freeText: ['name', 'description', 'location', 'distanceToSea'],
  },
  {
    method: 'PUT',
    pattern: '/api/cabins/:id',
    admin: true,
    path: () => `/api/cabins/${s.cabin}`,
    withId: (id) => `/api/cabins/${id}`,
    body: 'json',
    valid: () => ({ ...sampleCabin(), bedrooms: 2, featured: false }),
    freeText: ['name', 'description', 'location', 'distanceToSea'],
  },
  {
    method: 'DELETE',
    pattern: '/api/cabins/:id',
    admin: true,
    path: () => `/api/cabins/${s.cabin}`,
    withId: (id) => `/api/cabins/${id}`,
  },
  { method: 'GET', pattern: '/api/reviews/approved', admin: false, path: () => '/api/reviews/approved' },
  { method: 'GET', pattern: '/api/reviews', admin: true, path: () => '/api/reviews' },
  {
    method: 'POST',
    pattern: '/api/reviews',
    admin: false,
    path: () => '/api/reviews',
    body: 'json',
    valid: () => validReview({ website: '' }),
    freeText: ['name', 'comment'],
    strict: ['email', 'website'],
  },
  {
    method: 'PUT',
    pattern: '/api/reviews/:id',
    admin: true,
    path: () => `/api/reviews/${s.review}`,
    withId: (id) => `/api/reviews/${id}`,
    body: 'json',
    valid: () => ({
      name: 'Мария',
      email: 'maria@example.ru',
      rating: 4,
      comment: 'Исправленный отзыв',
      approved: true,
    }),
    freeText: ['name', 'comment'],
    strict: ['email'],
  },
  {
    method: 'DELETE',
    pattern: '/api/reviews/:id',
    admin: true,
    path: () => `/api/reviews/${s.review}`,
    withId: (id) => `/api/reviews/${id}`,
  },
  { method: 'GET', pattern: '/api/settings', admin: false, path: () => '/api/settings' },
  {
    method: 'PUT',
    pattern: '/api/settings',
    admin: true,
    path: () => '/api/settings',
    body: 'json',
    valid: () => ({
      siteName: 'Каспий',
      phone: '+7 900 000-00-00',
      email: 'info@example.ru',
      address: 'Каспийск',
      footerDescription: 'Описание',
      footerPhone: '+7 900 000-00-01',
      footerEmail: 'foot@example.ru',
      footerAddress: 'Каспийск, 1',
      mapEmbedCode: '',
      ownerName: 'ИП Иванов',
      heroTitle: 'Море',
      heroSubtitle: 'Рядом',
      whyChooseUsTitle: 'Почему мы',
      whyChooseUsSubtitle: 'Потому что',
      whyChooseUsFeatures: [{ title: 'Чисто', description: 'Всегда' }],
      galleryImages: ['/media/abc.jpg'],
      checkInTime: '14:00',
      checkOutTime: '12:00',
      contactInfo: { phone: '+7 900 000-00-02', email: 'ci@example.ru' },
    }),
    freeText: [
      'siteName',
      'phone',
      'address',
      'footerDescription',
      'footerPhone',
      'footerAddress',
      'mapEmbedCode',
      'ownerName',
      'heroTitle',
      'heroSubtitle',
      'whyChooseUsTitle',
      'whyChooseUsSubtitle',
    ],
    strict: ['email', 'footerEmail', 'checkInTime', 'checkOutTime'],
  },
  {
    method: 'POST',
    pattern: '/api/admin/login',
    admin: false,
    path: () => '/api/admin/login',
    body: 'json',
    valid: () => ({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    freeText: ['username', 'password'],
  },
  { method: 'POST', pattern: '/api/admin/logout', admin: false, path: () => '/api/admin/logout', body: 'ignored' },
  // Always 204: a bad beacon is dropped and counted (test/worker/funnel.test.ts).
  { method: 'POST', pattern: '/api/beacon', admin: false, path: () => '/api/beacon', body: 'ignored' },
  { method: 'GET', pattern: '/api/admin/session', admin: true, path: () => '/api/admin/session' },
  { method: 'GET', pattern: '/api/admin/cabins', admin: true, path: () => '/api/admin/cabins' },
  { method: 'GET', pattern: '/api/admin/settings', admin: true, path: () => '/api/admin/settings' },
  { method: 'GET', pattern: '/api/admin/path', admin: true, path: () => '/api/admin/path' },
  {
    method: 'PUT',
    pattern: '/api/admin/path',
    admin: true,
    path: () => '/api/admin/path',
    body: 'json',
    valid: () => ({ path: 'admin' }),
    strict: ['path'],
  },
  {
    method: 'PUT',
    pattern: '/api/admin/credentials',
    admin: true,
    path: () => '/api/admin/credentials',
    body: 'json',
    valid: () => ({ username: ADMIN_USERNAME, password: '', currentPassword: ADMIN_PASSWORD }),
    freeText: ['username', 'password', 'currentPassword'],
  },
  { method: 'GET', pattern: '/api/admin/publish', admin: true, path: () => '/api/admin/publish' },
  { method: 'POST', pattern: '/api/upload', admin: true, path: () => '/api/upload', body: 'multipart' },
  { method: 'GET', pattern: '/api/build-info', admin: false, path: () => '/api/build-info' },
  { method: 'GET', pattern: '/api/health', admin: false, path: () => '/api/health', usual: [200, 503] },
  { method: 'GET', pattern: '/api/openapi.json', admin: false, path: () => '/api/openapi.json' },
  // The reference is served only in a local run (npm start sets API_REFERENCE): 404 here.
  { method: 'GET', pattern: '/api/reference', admin: false, path: () => '/api/reference', usual: [200, 404] },
  { method: 'POST', pattern: '/api/admin/publish', admin: true, path: () => '/api/admin/publish' },
  {
    method: 'GET',
    pattern: '/api/cabins/:id/availability',
    admin: false,
    path: () => `/api/cabins/${s.cabin}/availability`,
    withId: (id) => `/api/cabins/${id}/availability`,
  },
  { method: 'GET', pattern: '/api/prices', admin: false, path: () => '/api/prices' },
  {
    method: 'GET',
    pattern: '/api/search',
    admin: false,
    path: () => `/api/search?${new URLSearchParams({ checkIn: inDays(30), checkOut: inDays(33), guests: '2' })}`,
    query: () => ({ checkIn: inDays(30), checkOut: inDays(33), guests: '2' }),
  },
  {
    method: 'GET',
    pattern: '/api/admin/occupancy',
    admin: true,
    path: () => '/api/admin/occupancy',
    query: () => ({ from: inDays(0), days: '31' }),
  },
  {
    method: 'POST',
    pattern: '/api/bookings',
    admin: false,
    path: () => '/api/bookings',
    body: 'json',
    valid: () => validBooking(s.cabin),
    freeText: ['name', 'comment'],
    strict: ['checkIn', 'checkOut', 'phone', 'email', 'channel', 'website'],
  },
  { method: 'GET', pattern: '/api/admin/bookings', admin: true, path: () => '/api/admin/bookings' },
  // «Сегодня»: the seeded booking is a request, so marking its stay is refused (409) and changes nothing.
  {
    method: 'GET',
    pattern: '/api/admin/today',
    admin: true,
    path: () => '/api/admin/today',
    query: () => ({ date: inDays(0) }),
  },
  {
    method: 'PUT',
    pattern: '/api/admin/bookings/:id/stay',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/stay`,
    withId: (id) => `/api/admin/bookings/${id}/stay`,
    body: 'json',
    valid: () => ({ departed: true, departedOn: inDays(0) }),
    strict: ['departedOn'],
    usual: [409],
  },
  {
    method: 'GET',
    pattern: '/api/admin/tasks',
    admin: true,
    path: () => '/api/admin/tasks',
    query: () => ({ from: inDays(0), to: inDays(7), cabinId: String(s.cabin) }),
  },
  {
    method: 'POST',
    pattern: '/api/admin/tasks',
    admin: true,
    path: () => '/api/admin/tasks',
    body: 'json',
    valid: () => ({ cabinId: s.cabin, due: inDays(1), kind: 'repair', note: 'Кран' }),
    freeText: ['note'],
    strict: ['due', 'kind'],
    usual: [201],
  },
  {
    method: 'PUT',
    pattern: '/api/admin/tasks/:id',
    admin: true,
    path: () => '/api/admin/tasks/999999',
    withId: (id) => `/api/admin/tasks/${id}`,
    body: 'json',
    valid: () => ({ done: true, note: 'Готово' }),
    freeText: ['note'],
    usual: [404],
  },
  // The photo's bytes are checked as an upload's (test/worker/task-photo.test.ts): here, the ids and the session.
  {
    method: 'PUT',
    pattern: '/api/admin/tasks/:id/photo',
    admin: true,
    path: () => '/api/admin/tasks/999999/photo',
    withId: (id) => `/api/admin/tasks/${id}/photo`,
    usual: [404],
  },
  {
    method: 'GET',
    pattern: '/api/admin/tasks/:id/photo',
    admin: true,
    path: () => '/api/admin/tasks/999999/photo',
    withId: (id) => `/api/admin/tasks/${id}/photo`,
    usual: [404],
  },
  {
    method: 'PUT',
    pattern: '/api/admin/bookings/:id',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}`,
    withId: (id) => `/api/admin/bookings/${id}`,
    body: 'json',
    valid: () => ({ status: 'declined' }),
    strict: ['status'],
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/bookings/:id',
    admin: true,
    path: () => '/api/admin/bookings/999999',
    withId: (id) => `/api/admin/bookings/${id}`,
  },
  // Prepayment. Here the worker runs without ЮKassa's keys: a notification is then a 404
  // and a payment link a 400 that says why; test/worker/payments.test.ts runs them with the keys.
  {
    method: 'GET',
    pattern: '/api/bookings/:id/status',
    admin: false,
    path: () => `/api/bookings/${s.booking}/status?token=${'0'.repeat(36)}`,
    withId: (id) => `/api/bookings/${id}/status?token=${'0'.repeat(36)}`,
    query: () => ({ token: '0'.repeat(36) }),
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/payments/yookassa',
    admin: false,
    path: () => '/api/payments/yookassa',
    body: 'json',
    valid: () => ({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id: '2f1e3c4d-000f-5000-9000-1b2c3d4e5f60' },
    }),
    strict: ['type', 'object'],
    freeText: ['event'],
    usual: [404],
  },
  { method: 'GET', pattern: '/api/admin/payments', admin: true, path: () => '/api/admin/payments' },
  // Owner alerts in MAX, against the MAX stand-in of the global setup.
  { method: 'GET', pattern: '/api/admin/max', admin: true, path: () => '/api/admin/max' },
  {
    method: 'PUT',
    pattern: '/api/admin/max',
    admin: true,
    path: () => '/api/admin/max',
    body: 'json',
    valid: () => ({ token: 'corpus-token-0123456789abcdef' }),
  },
  { method: 'DELETE', pattern: '/api/admin/max', admin: true, path: () => '/api/admin/max' },
  {
    method: 'POST',
    pattern: '/api/admin/max/check',
    admin: true,
    path: () => '/api/admin/max/check',
    body: 'ignored',
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/max/test',
    admin: true,
    path: () => '/api/admin/max/test',
    body: 'ignored',
    usual: [409],
  },
  // The guests' Telegram bot, against the Telegram stand-in of the global setup; its webhook
  // answers 404 to every path but the secret one Telegram was given (none here).
  { method: 'GET', pattern: '/api/admin/messengers', admin: true, path: () => '/api/admin/messengers' },
  { method: 'GET', pattern: '/api/admin/indexnow', admin: true, path: () => '/api/admin/indexnow' },
  {
    method: 'PUT',
    pattern: '/api/admin/messengers',
    admin: true,
    path: () => '/api/admin/messengers',
    body: 'json',
    valid: () => ({
      telegram: { token: '123456789:corpus-token-0123456789abcdefABCDEF' },
      // SMS.ru's stand-in takes any key of this shape (stand-ins/sms-api.ts).
      sms: { provider: 'smsru', key: 'CORPUS-0123-4567-89AB-CDEF01234567', sender: 'Kaspiy', monthlyCapRub: 500 },
    }),
    nullable: ['telegram', 'sms'],
  },
  // «Сообщения»: a thread of the seeded booking (its guest tied no chat, so an answer is a 409).
  {
    method: 'GET',
    pattern: '/api/admin/threads',
    admin: true,
    path: () => '/api/admin/threads',
    query: () => ({ unread: '1', channel: 'telegram', before: String(s.thread), limit: '20' }),
  },
  {
    method: 'GET',
    pattern: '/api/admin/threads/:id',
    admin: true,
    path: () => `/api/admin/threads/${s.thread}`,
    withId: (id) => `/api/admin/threads/${id}`,
  },
  {
    method: 'POST',
    pattern: '/api/admin/threads/:id/messages',
    admin: true,
    path: () => `/api/admin/threads/${s.thread}/messages`,
    withId: (id) => `/api/admin/threads/${id}/messages`,
    body: 'json',
    valid: () => ({ text: 'Здравствуйте! Да, можно.' }),
    freeText: ['text'],
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/threads/:id/read',
    admin: true,
    path: () => `/api/admin/threads/${s.thread}/read`,
    withId: (id) => `/api/admin/threads/${id}/read`,
    body: 'ignored',
  },
  { method: 'GET', pattern: '/api/admin/reply-templates', admin: true, path: () => '/api/admin/reply-templates' },
  {
    method: 'PUT',
    pattern: '/api/admin/reply-templates',
    admin: true,
    path: () => '/api/admin/reply-templates',
    body: 'json',
    valid: () => ({
      templates: [{ name: 'Как добраться', body: '{имя}, адрес на странице: {ссылка}' }],
      autoAnswer: { enabled: true, from: '21:00', to: '09:00', body: 'Ответим до 9:00.' },
    }),
  },
  {
    method: 'POST',
    pattern: '/api/hooks/telegram/:secret',
    admin: false,
    path: () => `/api/hooks/telegram/${'0'.repeat(48)}`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/hooks/avito/:secret',
    admin: false,
    path: () => `/api/hooks/avito/${'0'.repeat(48)}`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/hooks/max/:secret',
    admin: false,
    path: () => `/api/hooks/max/${'0'.repeat(48)}`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/admin/bookings/:id/payment-link',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/payment-link`,
    withId: (id) => `/api/admin/bookings/${id}/payment-link`,
    body: 'ignored',
    usual: [400],
  },
  {
    method: 'POST',
    pattern: '/api/admin/bookings/:id/refund',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/refund`,
    withId: (id) => `/api/admin/bookings/${id}/refund`,
    body: 'ignored',
    usual: [409],
  },
  // The seeded booking holds no deposit: nothing to let go or keep.
  {
    method: 'POST',
    pattern: '/api/admin/bookings/:id/deposit/release',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/deposit/release`,
    withId: (id) => `/api/admin/bookings/${id}/deposit/release`,
    body: 'ignored',
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/bookings/:id/deposit/keep',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/deposit/keep`,
    withId: (id) => `/api/admin/bookings/${id}/deposit/keep`,
    body: 'json',
    valid: () => ({ amount: 100, reason: 'Ключ' }),
    freeText: ['reason'],
    usual: [409],
  },
  // A booking's messages to its guest: the seeded one has none (no mail here), so «Отправить снова» finds nothing.
  {
    method: 'GET',
    pattern: '/api/admin/bookings/:id/messages',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/messages`,
    withId: (id) => `/api/admin/bookings/${id}/messages`,
  },
  {
    method: 'POST',
    pattern: '/api/admin/bookings/:id/messages/:kind/retry',
    admin: true,
    path: () => `/api/admin/bookings/${s.booking}/messages/confirmation/retry`,
    withId: (id) => `/api/admin/bookings/${id}/messages/confirmation/retry`,
    body: 'ignored',
    usual: [404],
  },
  { method: 'GET', pattern: '/api/ical/:file', admin: false, path: () => s.icalPath },
  {
    method: 'GET',
    pattern: '/api/admin/cabins/:id/calendar',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/calendar`,
    withId: (id) => `/api/admin/cabins/${id}/calendar`,
  },
  {
    method: 'PUT',
    pattern: '/api/admin/cabins/:id/seasons',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/seasons`,
    withId: (id) => `/api/admin/cabins/${id}/seasons`,
    body: 'json',
    valid: () => ({
      seasons: [{ start: inDays(30), end: inDays(60), pricePerNight: 7000, minNights: 3 }],
      minNights: 2,
    }),
    strict: ['seasons', 'minNights'],
  },
  {
    method: 'POST',
    pattern: '/api/admin/cabins/:id/blocks',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/blocks`,
    withId: (id) => `/api/admin/cabins/${id}/blocks`,
    body: 'json',
    valid: () => ({ start: inDays(10), end: inDays(12), note: 'Ремонт' }),
    freeText: ['note'],
    strict: ['start', 'end'],
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/blocks/:id',
    admin: true,
    path: () => '/api/admin/blocks/999999',
    withId: (id) => `/api/admin/blocks/${id}`,
  },
  {
    method: 'PUT',
    pattern: '/api/admin/cabins/:id/feeds',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/feeds`,
    withId: (id) => `/api/admin/cabins/${id}/feeds`,
    body: 'json',
    valid: () => ({ feeds: [{ name: 'Суточно', url: 'https://sutochno.example/calendar/1.ics' }] }),
    strict: ['feeds'],
  },
  {
    method: 'POST',
    pattern: '/api/admin/calendar-sync',
    admin: true,
    path: () => '/api/admin/calendar-sync',
    body: 'ignored',
  },
  {
    method: 'POST',
    pattern: '/api/admin/cabins/:id/ical-token',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/ical-token`,
    withId: (id) => `/api/admin/cabins/${id}/ical-token`,
    body: 'ignored',
  },
  // Channels, against the Avito stand-in of the global setup: the corpus's keys are no
  // account there, so a well-formed connection is Avito's refusal (400).
  { method: 'GET', pattern: '/api/admin/channels', admin: true, path: () => '/api/admin/channels' },
  {
    method: 'PUT',
    pattern: '/api/admin/channels/avito',
    admin: true,
    path: () => '/api/admin/channels/avito',
    body: 'json',
    valid: () => ({ clientId: 'corpus-client', clientSecret: 'corpus-secret', userId: 123456 }),
    strict: ['clientId', 'clientSecret', 'userId'],
    usual: [400],
  },
  { method: 'DELETE', pattern: '/api/admin/channels/avito', admin: true, path: () => '/api/admin/channels/avito' },
  {
    method: 'PUT',
    pattern: '/api/admin/cabins/:id/channels',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/channels`,
    withId: (id) => `/api/admin/cabins/${id}/channels`,
    // Avito is not connected here: a well-formed listing is a 409 that says so; null unlinks (200).
    body: 'json',
    valid: () => ({ avitoItemId: 4_000_001 }),
    strict: ['avitoItemId'],
    nullable: ['avitoItemId'],
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/channels/sync',
    admin: true,
    path: () => '/api/admin/channels/sync',
    body: 'ignored',
  },
  { method: 'GET', pattern: '/api/admin/conflicts', admin: true, path: () => '/api/admin/conflicts' },
  { method: 'GET', pattern: '/api/admin/channels/stays', admin: true, path: () => '/api/admin/channels/stays' },
  {
    method: 'POST',
    pattern: '/api/admin/feeds/:cabinId/:index/accept-empty',
    admin: true,
    path: () => `/api/admin/feeds/${s.cabin}/0/accept-empty`,
    body: 'ignored',
    usual: [404],
  },
  // Pricing.
  { method: 'GET', pattern: '/api/admin/pricing', admin: true, path: () => '/api/admin/pricing' },
  {
    method: 'PUT',
    pattern: '/api/admin/pricing',
    admin: true,
    path: () => '/api/admin/pricing',
    body: 'json',
    valid: () => ({
      discounts: [{ kind: 'longStay', minNights: 7, percent: 10 }],
      extras: [{ name: 'Баня', price: 2000, per: 'stay', mandatory: false }],
    }),
    strict: ['discounts', 'extras'],
  },
  { method: 'GET', pattern: '/api/admin/promo-codes', admin: true, path: () => '/api/admin/promo-codes' },
  {
    method: 'PUT',
    pattern: '/api/admin/promo-codes',
    admin: true,
    path: () => '/api/admin/promo-codes',
    body: 'json',
    valid: () => ({ codes: [{ code: 'LETO', percent: 10, maxUses: 5 }] }),
    strict: ['codes'],
  },
  {
    method: 'GET',
    pattern: '/api/admin/cabins/:id/date-prices',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/date-prices`,
    withId: (id) => `/api/admin/cabins/${id}/date-prices`,
  },
  {
    method: 'PUT',
    pattern: '/api/admin/cabins/:id/date-prices',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/date-prices`,
    withId: (id) => `/api/admin/cabins/${id}/date-prices`,
    body: 'json',
    valid: () => ({ prices: [{ date: inDays(40), price: 9000 }] }),
    strict: ['prices'],
  },
  {
    method: 'GET',
    pattern: '/api/quote',
    admin: false,
    path: () =>
      `/api/quote?${new URLSearchParams({ cabinId: String(s.cabin), checkIn: inDays(30), checkOut: inDays(33), guests: '2' })}`,
    query: () => ({ cabinId: String(s.cabin), checkIn: inDays(30), checkOut: inDays(33), guests: '2' }),
  },
  // The guest's own page: the token is the only key; one nobody holds is a 404 (guest.test.ts uses real ones).
  {
    method: 'GET',
    pattern: '/api/guest/:token',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}`,
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/pay',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/pay`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/deposit',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/deposit`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/cancel',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/cancel`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/link/telegram',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/link/telegram`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/link/max',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/link/max`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'GET',
    pattern: '/api/guest/:token/change',
    admin: false,
    path: () =>
      `/api/guest/${'0'.repeat(36)}/change?${new URLSearchParams({ checkIn: inDays(40), checkOut: inDays(43) })}`,
    query: () => ({ checkIn: inDays(40), checkOut: inDays(43) }),
    usual: [404],
  },
  {
    method: 'POST',
    pattern: '/api/guest/:token/change',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/change`,
    body: 'json',
    valid: () => ({ checkIn: inDays(40), checkOut: inDays(43) }),
    strict: ['checkIn', 'checkOut'],
    usual: [404],
  },
  {
    method: 'GET',
    pattern: '/api/guest/:token/stay.ics',
    admin: false,
    path: () => `/api/guest/${'0'.repeat(36)}/stay.ics`,
    usual: [404],
  },
  {
    method: 'GET',
    pattern: '/api/admin/cabins/:id/instructions',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/instructions`,
    withId: (id) => `/api/admin/cabins/${id}/instructions`,
  },
  {
    method: 'PUT',
    pattern: '/api/admin/cabins/:id/instructions',
    admin: true,
    path: () => `/api/admin/cabins/${s.cabin}/instructions`,
    withId: (id) => `/api/admin/cabins/${id}/instructions`,
    body: 'json',
    valid: () => ({ text: 'Ключ в сейфе у калитки' }),
    freeText: ['text'],
  },
  // The owner's account: people, sessions, two-factor sign-in (off here: enabling is
  // refused without a set-up, disabling without it on) and the record.
  { method: 'GET', pattern: '/api/admin/users', admin: true, path: () => '/api/admin/users' },
  {
    method: 'POST',
    pattern: '/api/admin/users',
    admin: true,
    path: () => '/api/admin/users',
    body: 'json',
    valid: () => ({ username: 'corpus-manager', password: 'long-enough-1', role: 'manager' }),
    freeText: ['username', 'password'],
    strict: ['role'],
    usual: [201],
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/users/:id',
    admin: true,
    path: () => '/api/admin/users/999999',
    withId: (id) => `/api/admin/users/${id}`,
  },
  // A cleaner's sign-in link: of nobody here (404), of the owner (409, not a cleaner).
  {
    method: 'POST',
    pattern: '/api/admin/users/:id/link',
    admin: true,
    path: () => '/api/admin/users/999999/link',
    withId: (id) => `/api/admin/users/${id}/link`,
    body: 'ignored',
    usual: [404],
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/users/:id/link',
    admin: true,
    path: () => '/api/admin/users/999999/link',
    withId: (id) => `/api/admin/users/${id}/link`,
    usual: [404],
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/users/:id/messengers',
    admin: true,
    path: () => '/api/admin/users/999999/messengers',
    withId: (id) => `/api/admin/users/${id}/messengers`,
    usual: [404],
  },
  // The cleaner's own: the owner who calls them is told only a cleaner gets the list.
  {
    method: 'GET',
    pattern: '/api/admin/today/messengers',
    admin: true,
    path: () => '/api/admin/today/messengers',
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/today/messengers/:channel',
    admin: true,
    path: () => '/api/admin/today/messengers/telegram',
    body: 'ignored',
    usual: [409],
  },
  {
    method: 'GET',
    pattern: '/api/admin/sessions',
    admin: true,
    path: () => '/api/admin/sessions',
    query: () => ({ all: '1' }),
  },
  {
    method: 'DELETE',
    pattern: '/api/admin/sessions/:id',
    admin: true,
    path: () => '/api/admin/sessions/999999',
    withId: (id) => `/api/admin/sessions/${id}`,
  },
  { method: 'DELETE', pattern: '/api/admin/sessions', admin: true, path: () => '/api/admin/sessions' },
  { method: 'POST', pattern: '/api/admin/2fa/setup', admin: true, path: () => '/api/admin/2fa/setup', body: 'ignored' },
  {
    method: 'POST',
    pattern: '/api/admin/2fa/enable',
    admin: true,
    path: () => '/api/admin/2fa/enable',
    body: 'json',
    valid: () => ({ code: '123456', password: ADMIN_PASSWORD }),
    freeText: ['code', 'password'],
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/2fa/disable',
    admin: true,
    path: () => '/api/admin/2fa/disable',
    body: 'json',
    valid: () => ({ code: '123456' }),
    freeText: ['code'],
    usual: [409],
  },
  {
    method: 'POST',
    pattern: '/api/admin/2fa/recovery-codes',
    admin: true,
    path: () => '/api/admin/2fa/recovery-codes',
    body: 'json',
    valid: () => ({ code: '123456', password: ADMIN_PASSWORD }),
    freeText: ['code', 'password'],
    usual: [409],
  },
  {
    // `actor` takes any login, so it is no part of the hostile query; `from` and `to` take any real date.
    method: 'GET',
    pattern: '/api/admin/audit',
    admin: true,
    path: () => '/api/admin/audit',
    query: () => ({ kind: 'bookings', from: inDays(-30), to: inDays(0), before: '1000', limit: '20' }),
  },
  { method: 'GET', pattern: '/api/admin/checklist', admin: true, path: () => '/api/admin/checklist' },
  {
    method: 'PUT',
    pattern: '/api/admin/checklist',
    admin: true,
    path: () => '/api/admin/checklist',
    body: 'json',
    valid: () => ({ dismissed: false }),
    strict: ['dismissed'],
  },
  { method: 'GET', pattern: '/api/admin/demo', admin: true, path: () => '/api/admin/demo' },
  // The owner's numbers: a period is required, so the usual path carries one.
  ...['summary', 'tourist-tax', 'funnel', 'bookings.csv', 'bookings.xlsx'].map(
    (name): RouteSpec => ({
      method: 'GET',
      pattern: `/api/admin/reports/${name}`,
      admin: true,
      path: () => `/api/admin/reports/${name}?from=${inDays(-30)}&to=${inDays(0)}`,
      query: () => ({ from: inDays(-30), to: inDays(0) }),
    }),
  ),
  { method: 'DELETE', pattern: '/api/admin/demo', admin: true, path: () => '/api/admin/demo' },
  {
    method: 'GET',
    pattern: '/media/:key',
    admin: false,
    path: () => '/media/11111111-2222-3333-4444-555555555555.jpg',
  },
];

const routeName = (r: RouteSpec) => `${r.method} ${r.pattern}`;
/** A date `n` days from today in Moscow, for valid calendar bodies. */
function inDays(n: number): string {
  return addDays(todayInMoscow(), n);
}

// ---------------------------------------------------------------------------------------------
// Hostile material, built once.

const enc = new TextEncoder();
const TEN_MB_PLUS_ONE = UPLOAD_MAX_BYTES + 1;

/** A JSON body of exactly 10 MB + 1 byte: `{"name":"xxx…"}`. */
const HUGE_JSON = (() => {
  const bytes = new Uint8Array(TEN_MB_PLUS_ONE).fill(0x78);
  bytes.set(enc.encode('{"name":"'));
  bytes.set(enc.encode('"}'), TEN_MB_PLUS_ONE - 2);
  return bytes;
})();

/** A multipart upload whose JPEG file alone is 10 MB + 1 byte. */
const HUGE_UPLOAD = (() => {
  const file = new Uint8Array(TEN_MB_PLUS_ONE);
  file.set(JPEG);
  return multipartBody(file);
})();
/** A multipart body of 10 MB + 1 byte over the route's whole-body limit (10 MB + 64 KB). */
const HUGER_UPLOAD = (() => {
  const file = new Uint8Array(UPLOAD_MAX_BYTES + 64 * 1024 + 1);
  file.set(JPEG);
  return multipartBody(file);
})();

/**
 * The same bytes as a stream without Content-Length (chunked), 64 KB a chunk. The worker
 * answers 413 without reading it all, so workerd logs «read end of pipe was aborted»: expected.
 */
const streamOf = (bytes: Uint8Array) => {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 65536));
      at += 65536;
    },
  });
};

/** Text that is valid input wherever free text is taken: it must come back exactly. */
const HOSTILE_TEXT: [string, string][] = [
  ['an RTL override', 'счёт\u202Egpj.exe'],
  ['emoji, ZWJ sequences and flags', '😀 👨‍👩‍👧‍👦 🇷🇺 🏖️'],
  ['a NUL character', 'до\u0000после'],
  ['control characters and an ANSI escape', 'a\u0001\u0007\u001b[31mb\u007f'],
  ['zero-width characters and a BOM inside', 'a\u200b\u200c\u200d\ufeffb'],
  ['stacked combining marks', 'З̸̢̛̛а̴̧л̵г̶о̷'],
  ['astral-plane letters', '𝕂𝕒𝕤𝕡𝕚𝕪 𓂀'],
  ['non-characters', 'x\uffff\ufffey'],
  ['SQL: a dropped table', "'; DROP TABLE cabins; --"],
  ['SQL: always true', '" OR 1=1 --'],
  ['SQL: a union', "1' UNION SELECT password_hash FROM admin_account --"],
  ['HTML: a script', '<script>alert(document.cookie)</script>'],
  ['HTML: an event handler', '<img src=x onerror=alert(1)><svg onload=alert(2)>'],
  ['HTML: entities', '&lt;b&gt; &amp; &#x3C;script&#x3E; &quot;'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template syntax a guest might type, sent as it is
  ['template syntax', '{{7*7}} ${7*7} <%= 7*7 %> #{7*7}'],
  ['JSON with __proto__', '{"__proto__":{"admin":true}}'],
  ['a path traversal', '../../../etc/passwd'],
  ['CR LF and a header', 'строка\r\nSet-Cookie: kaspiy_admin=x'],
  ['a homoglyph of admin', 'аdmin'],
];

/** Strings that are not well-formed Unicode: D1 would keep U+FFFD instead, so they are refused. */
const LONE_SURROGATES: [string, string][] = [
  ['a lone high surrogate', 'текст a\ud800b'],
  ['a lone low surrogate', 'текст a\udc00b'],
  ['half an emoji at the end', 'смайлик \ud83d'],
  ['a reversed pair', 'текст \ude00\ud83d'],
];

/** Bodies that are not JSON (or not UTF-8): 400 with MSG.badJson (MSG.badText for bytes). */
const MALFORMED_JSON: [string, string | Uint8Array<ArrayBuffer>][] = [
  ['an empty body', ''],
  ['whitespace only', ' \n\t '],
  ['an open brace', '{'],
  ['a key without a value', '{"name":'],
  ['an unterminated string', '{"name":"Ива'],
  ['a trailing comma', '{"name":"x",}'],
  ['single quotes', "{'name':'x'}"],
  ['unquoted keys', '{name:"x"}'],
  ['a truncated literal', 'nul'],
  ['NaN', 'NaN'],
  ['undefined', 'undefined'],
  ['two documents', '{}{}'],
  ['a comment', '{/* x */}'],
  ['a raw control character in a string', '{"name":"a\u0001b"}'],
  ['a NUL byte', '\u0000'],
  [
    'bytes that are not UTF-8',
    new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]),
  ],
  ['an overlong UTF-8 slash', new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d])],
];

const WRONG_CONTENT_TYPES: (string | null)[] = [
  null,
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'application/json garbage',
  'application/json, text/html',
  'application/vnd.api+json',
  'application/json-patch+json',
  'image/gif',
];

// ---------------------------------------------------------------------------------------------
// Sending and checking.

function request(
  method: string,
  path: string,
  opts: { role: Role | string; body?: Body; type?: string | null; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.type) headers['content-type'] = opts.type;
  const cookie = opts.role === 'admin' ? s.cookie : opts.role === 'visitor' ? undefined : opts.role;
  return send(method, path, { cookie, body: opts.body ?? null, headers });
}

const json = (value: unknown) => JSON.stringify(value);

/** A problem with the answer to one case, or null. */
async function problem(res: Response, c: Case): Promise<string | null> {
  if (c.raw && res.status < 400 && c.status.includes(res.status)) {
    await res.arrayBuffer();
    return null;
  }
  const text = await res.text();
  const brief = `${res.status} ${text.slice(0, 160)}`;
  if (!c.status.includes(res.status)) return `status ${brief} (want ${c.status.join('/')})`;
  if (!/^application\/json\b/.test(res.headers.get('content-type') ?? ''))
    return `not JSON: ${res.headers.get('content-type')} ${brief}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `unparsable body ${brief}`;
  }
  if (res.status >= 400) {
    if (/\bat .+:\d+:\d+|node_modules|\.ts\b|Error:/.test(text)) return `leaks internals ${brief}`;
    // One of ours, or one of ours after the name of the field (the owner's calendar forms).
    const own = (e: string) =>
      OWN_MESSAGES.has(e) || [...OWN_MESSAGES].some((m) => e.endsWith(`: ${m}`) && e.length - m.length <= 42);
    if (typeof body.error !== 'string' || !own(body.error)) return `error text is not one of ours: ${brief}`;
    if (c.error !== undefined && body.error !== c.error) return `error «${body.error}», want «${c.error}»`;
    // `success` (login) and `ok` (health) go with the error by contract.
    const extra = Object.keys(body).filter((k) => k !== 'error' && k !== 'success' && k !== 'ok');
    if (extra.length > 0) return `unexpected keys ${extra.join(',')}: ${brief}`;
  }
  return null;
}

/** Sends every case, 16 at a time, and checks every answer and that D1 and R2 did not change. */
async function expectEveryAnswer(cases: Case[]) {
  expect(cases.length).toBeGreaterThan(0);
  const before = await snapshot();
  const failures: string[] = [];
  for (let i = 0; i < cases.length; i += 16) {
    await Promise.all(
      cases.slice(i, i + 16).map(async (c) => {
        const p = await problem(await c.send(), c);
        if (p) failures.push(`${c.label}: ${p}`);
      }),
    );
  }
  expect(failures, `${failures.length} of ${cases.length} cases:\n${failures.join('\n')}`).toEqual([]);
  expect(await snapshot()).toEqual(before);
}

// ---------------------------------------------------------------------------------------------
// The corpus of one route for one role.

const mutate = (base: Record<string, unknown>, key: string, value: unknown) => ({ ...base, [key]: value });

/** Values of the wrong type for a field whose valid value is `v`. */
function wrongTypes(v: unknown): unknown[] {
  if (typeof v === 'string') return [42, ['x'], { x: 'x' }];
  if (typeof v === 'number') return [String(v), 1.5, true];
  if (typeof v === 'boolean') return ['true', 1, []];
  if (Array.isArray(v)) return ['x', [null], [42], {}];
  if (v && typeof v === 'object') return ['x', [], 42];
  return [];
}

function jsonCorpus(r: RouteSpec, role: Role): Case[] {
  const valid = r.valid!();
  const path = r.path();
  const refused = (
    label: string,
    body: Body,
    status: number,
    error?: string,
    type: string | null = 'application/json',
  ): Case => {
    const visitor = role === 'visitor' && r.admin;
    return {
      label,
      send: () => request(r.method, path, { role, body, type }),
      status: [visitor ? 401 : status],
      error: visitor ? MSG.unauthorized : error,
    };
  };
  const cases: Case[] = [];

  for (const type of WRONG_CONTENT_TYPES) {
    // A typed array, so fetch adds no text/plain of its own.
    cases.push(refused(`content type ${type ?? '(none)'}`, enc.encode(json(valid)), 415, MSG.jsonExpected, type));
  }
  const validText = json(valid);
  for (const [label, body] of MALFORMED_JSON) {
    const error = body instanceof Uint8Array ? MSG.badText : MSG.badJson;
    cases.push(refused(`malformed JSON: ${label}`, body, 400, error));
  }
  for (const cut of [1, Math.floor(validText.length / 3), Math.floor(validText.length / 2), validText.length - 1]) {
    cases.push(refused(`JSON truncated at ${cut} of ${validText.length}`, validText.slice(0, cut), 400, MSG.badJson));
  }
  cases.push(
    refused(
      'JSON truncated inside a Cyrillic character',
      enc.encode(validText).slice(0, enc.encode(validText).indexOf(0xd0) + 1),
      400,
    ),
  );

  // JSON, but not an object (100,000 nested arrays parse: V8 has no depth limit to trip).
  for (const whole of [null, [], 42, 'x', true, [valid]]) {
    cases.push(refused(`a body of ${json(whole)?.slice(0, 20)}`, json(whole), 400));
  }
  cases.push(refused('100,000 nested arrays', '['.repeat(100_000) + ']'.repeat(100_000), 400));
  for (const [key, value] of Object.entries(valid)) {
    if (!r.nullable?.includes(key)) cases.push(refused(`${key}: null`, json(mutate(valid, key, null)), 400));
    for (const wrong of wrongTypes(value))
      cases.push(refused(`${key}: ${json(wrong)}`, json(mutate(valid, key, wrong)), 400));
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, was] of Object.entries(value)) {
        // A number where text belongs; text where a number does (42 may be a good number, a cap).
        const wrong = typeof was === 'number' ? '42' : 42;
        cases.push(
          refused(`${key}.${inner}: ${json(wrong)}`, json(mutate(valid, key, { ...value, [inner]: wrong })), 400),
        );
      }
    }
    if (Array.isArray(value) && value[0] && typeof value[0] === 'object') {
      cases.push(refused(`${key}[0].title: null`, json(mutate(valid, key, [{ ...value[0], title: null }])), 400));
    }
    // 200,000 two-byte letters: under the body limit, over every field's length limit.
    const huge = 'я'.repeat(100_000);
    if (typeof value === 'string') cases.push(refused(`${key}: 100,000 letters`, json(mutate(valid, key, huge)), 400));
    if (Array.isArray(value)) cases.push(refused(`${key}: [100,000 letters]`, json(mutate(valid, key, [huge])), 400));
    if (typeof value === 'number') {
      cases.push(refused(`${key}: 1e400`, validText.replace(`"${key}":${value}`, `"${key}":1e400`), 400));
      cases.push(refused(`${key}: -1`, json(mutate(valid, key, -1)), 400));
    }
  }
  cases.push(
    refused('a body of 300 KB', json({ ...valid, padding: 'x'.repeat(300 * 1024) }), 413, MSG.requestTooLarge),
  );
  cases.push(refused('a body of 10 MB + 1 byte', HUGE_JSON, 413, MSG.requestTooLarge));
  cases.push(
    refused('a stream of 10 MB + 1 byte without Content-Length', streamOf(HUGE_JSON), 413, MSG.requestTooLarge),
  );

  // Hostile text where the route wants something stricter (e-mail, time, path, image address).
  for (const key of r.strict ?? []) {
    for (const [label, text] of [...HOSTILE_TEXT.slice(8, 13), ...LONE_SURROGATES.slice(0, 1)]) {
      cases.push(refused(`${key}: ${label}`, json(mutate(valid, key, text)), 400));
    }
  }
  // Text that is not well-formed Unicode, in a free-text field.
  for (const key of r.freeText ?? []) {
    for (const [label, text] of LONE_SURROGATES)
      cases.push(refused(`${key}: ${label}`, json(mutate(valid, key, text)), 400, MSG.badText));
  }
  return cases;
}

const uploadCases = (role: Role): Case[] => {
  const visitor = role === 'visitor';
  const c = (label: string, body: Body, type: string | null, status: number, error?: string): Case => ({
    label,
    send: () => request('POST', '/api/upload', { role, body, type }),
    status: [visitor ? 401 : status],
    error: visitor ? MSG.unauthorized : error,
  });
  const svg = enc.encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
  const text = (t: string) => enc.encode(t);
  return [
    c(
      'a renamed SVG (photo.jpg, image/jpeg)',
      multipartBody(svg, 'photo.jpg', 'image/jpeg'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'a renamed SVG with an XML prolog (photo.png)',
      multipartBody(text(`<?xml version="1.0"?>${new TextDecoder().decode(svg)}`), 'photo.png', 'image/png'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'an SVG after a BOM',
      multipartBody(new Uint8Array([0xef, 0xbb, 0xbf, ...svg]), 'photo.gif', 'image/gif'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'an SVG after whitespace',
      multipartBody(text(`\n\n  ${new TextDecoder().decode(svg)}`), 'photo.webp', 'image/webp'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'a gzipped SVG',
      multipartBody(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, ...svg]), 'photo.svgz', 'image/svg+xml'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'HTML named .gif',
      multipartBody(text('<!doctype html><script>alert(1)</script>'), 'a.gif', 'image/gif'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'HTML before a GIF header',
      multipartBody(text('<script>alert(1)</script>GIF89a'), 'a.gif', 'image/gif'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'a GIF header one byte short',
      multipartBody(text('GIF89'), 'a.gif', 'image/gif'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'a made-up GIF version',
      multipartBody(text('GIF90a<script>'), 'a.gif', 'image/gif'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c('two bytes of a JPEG', multipartBody(new Uint8Array([0xff, 0xd8]), 'a.jpg'), MULTIPART_TYPE, 415, MSG.uploadType),
    c(
      'a PNG signature one byte short',
      multipartBody(PNG.slice(0, 7), 'a.png', 'image/png'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'a RIFF that is not WebP',
      multipartBody(text('RIFF\u0000\u0000\u0000\u0000AVI LIST'), 'a.webp', 'image/webp'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c('a PDF', multipartBody(text('%PDF-1.7\n<script>'), 'a.jpg'), MULTIPART_TYPE, 415, MSG.uploadType),
    c(
      'a ZIP',
      multipartBody(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'a.jpg'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'an ELF binary',
      multipartBody(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]), 'a.jpg'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c(
      'an SVG with a traversal file name',
      multipartBody(svg, '../../../media/x.jpg', 'image/jpeg'),
      MULTIPART_TYPE,
      415,
      MSG.uploadType,
    ),
    c('an empty file', multipartBody(new Uint8Array(0)), MULTIPART_TYPE, 400, MSG.uploadMissing),
    c(
      'the file in another field',
      multipartBody(JPEG, 'a.jpg', 'image/jpeg', 'file'),
      MULTIPART_TYPE,
      400,
      MSG.uploadMissing,
    ),
    c(
      'the image field as text',
      text(
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="image"\r\n\r\nGIF89a<script>\r\n--${MULTIPART_BOUNDARY}--\r\n`,
      ),
      MULTIPART_TYPE,
      400,
      MSG.uploadMissing,
    ),
    c(
      'a body cut in the middle of the file',
      multipartBody(JPEG).slice(0, 120),
      MULTIPART_TYPE,
      400,
      MSG.uploadMissing,
    ),
    c('a body without the closing boundary', multipartBody(JPEG).slice(0, -8), MULTIPART_TYPE, 400, MSG.uploadMissing),
    c(
      'another boundary than the body has',
      multipartBody(JPEG),
      'multipart/form-data; boundary=other',
      400,
      MSG.uploadMissing,
    ),
    c('no boundary', multipartBody(JPEG), 'multipart/form-data', 400, MSG.uploadMissing),
    c('JSON under a multipart type', text('{"image":"GIF89a"}'), MULTIPART_TYPE, 400, MSG.uploadMissing),
    c('no body', null, MULTIPART_TYPE, 400, MSG.uploadMissing),
    c('a JPEG sent raw, not multipart', JPEG, 'image/jpeg', 415, MSG.uploadMissing),
    c('a JPEG sent as JSON', text(json({ image: [...JPEG] })), 'application/json', 415, MSG.uploadMissing),
    c('a form sent urlencoded', text('image=GIF89a'), 'application/x-www-form-urlencoded', 415, MSG.uploadMissing),
    c('no content type', multipartBody(JPEG), null, 415, MSG.uploadMissing),
    c('a file of 10 MB + 1 byte', HUGE_UPLOAD, MULTIPART_TYPE, 413, MSG.uploadTooLarge),
    c('a body over the limit', HUGER_UPLOAD, MULTIPART_TYPE, 413, MSG.uploadTooLarge),
    c(
      'a body over the limit as a stream without Content-Length',
      streamOf(HUGER_UPLOAD),
      MULTIPART_TYPE,
      413,
      MSG.uploadTooLarge,
    ),
  ];
};

/** Ids that are not a positive integer of ours. */
const HOSTILE_IDS = [
  '0',
  '-1',
  '1.0',
  '1e2',
  '0x1',
  '01',
  '%201',
  '1%20',
  '1%00',
  '%00',
  '%D9%A1',
  '%EF%BC%91',
  '1%3BDROP%20TABLE%20cabins',
  "1'%20OR%20'1'%3D'1",
  '99999999999',
  '9'.repeat(1000),
  '%3Cscript%3E',
  '..%2F1',
  '%2e%2e%2f1',
  'null',
  'undefined',
  '%F0%9F%98%80',
  '%E2%80%AE1',
  '%ED%A0%80',
  '%C0%AF',
];

function idCases(r: RouteSpec, role: Role): Case[] {
  const visitor = role === 'visitor' && r.admin;
  const body = r.valid ? json(r.valid()) : null;
  return HOSTILE_IDS.map((id) => ({
    label: `id ${id.slice(0, 30)}`,
    send: () => request(r.method, r.withId!(id), { role, body, type: body ? 'application/json' : null }),
    status: visitor ? [401] : [400],
    error: visitor ? MSG.unauthorized : MSG.badId,
  }));
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`).test(path);

function wrongMethodCases(r: RouteSpec, role: Role): Case[] {
  const taken = new Set<string>(ROUTES.filter((o) => o.pattern === r.pattern).map((o) => o.method));
  // Under /api/admin/ the session check comes before the router knows there is no such route.
  const adminArea = r.pattern.startsWith('/api/admin/');
  return METHODS.filter((m) => !taken.has(m)).map((m) => {
    // PUT /api/reviews/approved is PUT /api/reviews/:id with the id «approved»: that route refuses it.
    const other = ROUTES.find((o) => o.method === m && matches(o.pattern, r.path()));
    const status = other
      ? role === 'visitor' && other.admin
        ? [401]
        : [400]
      : role === 'visitor' && adminArea
        ? [401]
        : [404];
    return { label: `method ${m}`, send: () => request(m, r.path(), { role }), status };
  });
}

/** Odd headers on a read: answered as usual (or 401 to a visitor on an admin read), never 5xx. */
/** Each parameter of a valid query made wrong in turn: every answer a Russian 400. */
function queryCases(r: RouteSpec, role: Role): Case[] {
  const visitor = role === 'visitor' && r.admin;
  const valid = r.query!();
  const bad = [
    ...LONE_SURROGATES.map(([label, v]) => [label, v] as const),
    ...HOSTILE_TEXT.map(([label, v]) => [label, v] as const),
    ['an empty value', ''],
    ['a negative number', '-1'],
    ['a fraction', '1.5'],
    ['an exponent', '1e1'],
    ['full-width digits', '２０２７-０１-０１'],
    ['a huge number', '9'.repeat(400)],
    ['a date with a time', `${inDays(30)}T00:00:00Z`],
    ['a date that does not exist', '2027-02-30'],
    ['a day in the past', inDays(-400)],
    ['far in the future', inDays(4000)],
    ['10 KB of text', 'x'.repeat(10_240)],
  ] as const;
  const path = (query: Record<string, string>) => `${r.pattern}?${new URLSearchParams(query)}`;
  const cases: Case[] = [];
  for (const key of Object.keys(valid)) {
    for (const [label, value] of bad) {
      const query = { ...valid, [key]: value };
      // A valid value among the hostile ones (occupancy takes any real date as its start).
      if (
        r.pattern === '/api/admin/occupancy' &&
        key === 'from' &&
        /^\d{4}-\d{2}-\d{2}$/.test(value) &&
        value !== '2027-02-30'
      )
        continue;
      // The day «Сегодня» shows may be any real date.
      if (r.pattern === '/api/admin/today' && /^\d{4}-\d{2}-\d{2}$/.test(value) && value !== '2027-02-30') continue;
      if (
        r.pattern === '/api/admin/audit' &&
        (key === 'from' || key === 'to') &&
        /^\d{4}-\d{2}-\d{2}$/.test(value) &&
        value !== '2027-02-30'
      )
        continue;
      // A report takes any real period up to 3 years: a start 400 days back is one.
      if (r.pattern.startsWith('/api/admin/reports/') && key === 'from' && value === inDays(-400)) continue;
      cases.push({
        label: `${key}: ${label}`,
        send: () => request('GET', path(query), { role }),
        status: visitor ? [401] : [400],
      });
    }
    if (r.pattern === '/api/search') {
      const { [key]: _, ...rest } = valid;
      cases.push({
        label: `${key} missing`,
        send: () => request('GET', path(rest), { role }),
        status: visitor ? [401] : [400],
      });
    }
  }
  return cases;
}

function readHeaderCases(r: RouteSpec, role: Role): Case[] {
  const visitor = role === 'visitor' && r.admin;
  const headers: Record<string, string>[] = [
    { accept: 'text/html' },
    { accept: '*/*;q=garbage' },
    { 'accept-encoding': 'x-unknown' },
    { 'if-none-match': '"' },
    { 'if-match': 'garbage' },
    { 'if-modified-since': 'yesterday' },
    { 'if-unmodified-since': '32 Jan 1970' },
    { range: 'bytes=9999999-1' },
    { 'content-type': 'application/json' },
    { 'x-http-method-override': 'DELETE' },
    { 'x-forwarded-host': 'evil.example' },
    { 'cf-connecting-ip': "'; DROP TABLE rate_limits; --" },
  ];
  return headers.map((h) => ({
    label: `header ${json(h)}`,
    send: () => request('GET', r.path(), { role, headers: h }),
    status: visitor ? [401] : (r.usual ?? [200]),
    raw:
      r.pattern.startsWith('/media/') ||
      r.pattern.startsWith('/api/ical/') ||
      /^\/api\/admin\/reports\/bookings\./.test(r.pattern),
  }));
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  await resetDataWithAdmin();
  const cabin = await seedCabin();
  const review = await seedReview({ approved: true });
  await env.MEDIA.put('11111111-2222-3333-4444-555555555555.jpg', JPEG, {
    httpMetadata: { contentType: 'image/jpeg' },
  });
  const cookie = await login();
  const loggedOutCookie = await login();
  expect((await send('POST', '/api/admin/logout', { cookie: loggedOutCookie })).status).toBe(200);
  const expired = await createSession(env, { userId: 1 });
  await env.DB.prepare('UPDATE admin_sessions SET expires_at = ? WHERE token_hash = ?')
    .bind(Date.now() - 1, await sha256Hex(expired.token))
    .run();
  const calendar = (await (
    await send('GET', `/api/admin/cabins/${cabin.id}/calendar`, { cookie })
  ).json()) as InferResponseType<Api['admin']['cabins'][':id']['calendar']['$get'], 200>;
  const icalPath = new URL(calendar.exportUrl).pathname;
  // The export notes its version (ETag, Last-Modified) at its first read after a change: read once
  // here, so the corpus's reads of it find nothing to note.
  expect((await send('GET', icalPath)).status).toBe(200);
  const booked = await send('POST', '/api/bookings', {
    body: JSON.stringify(validBooking(cabin.id)),
    headers: { 'content-type': 'application/json' },
  });
  expect(booked.status).toBe(201);
  const booking = ((await booked.json()) as Booked).id;
  const thread = (await env.DB.prepare(
    "INSERT INTO threads (channel, booking_id, created_at) VALUES ('telegram', ?, ?) RETURNING id",
  )
    .bind(booking, Date.now())
    .first<{ id: number }>())!.id;
  s = {
    cookie,
    cabin: cabin.id,
    review: review.id,
    expiredCookie: `kaspiy_admin=${expired.token}`,
    loggedOutCookie,
    token: cookie.split('=')[1]!,
    icalPath,
    booking,
    thread,
  };
});

describe('the corpus covers the router', () => {
  it('should have a spec for every route the worker serves, and no spec for a route it does not', () => {
    // GET /search is a page (HTML, filled from the built site's shell): its bad input is tested
    // end to end (test/e2e/public/search.test.ts); its query is the schema of GET /api/search, here.
    // GET /b/{token} is the guest's page, written from what GET /api/guest/{token} answers (test/worker/guest-page.test.ts).
    // GET /enter/{token} is a cleaner's sign-in link: a redirect or the 404 page (test/worker/cleaner.test.ts).
    const PAGES = new Set(['/*', '/search', '/b/:token{[0-9a-f]{36}}', '/enter/:token{[0-9a-f]{64}}']);
    const served = new Set(
      app.routes.filter((r) => r.method !== 'ALL' && !PAGES.has(r.path)).map((r) => `${r.method} ${r.path}`),
    );
    expect([...served].sort()).toEqual(ROUTES.map(routeName).sort());
  });
});

describe.each(ROUTES.map((r) => [routeName(r), r] as const))('bad input to %s', (_, r) => {
  const roles: Role[] = r.admin ? ['visitor', 'admin'] : ['visitor'];

  it.each(roles)('should refuse wrong methods (as %s) with a JSON 4xx and change nothing', async (role) => {
    await expectEveryAnswer(wrongMethodCases(r, role));
  });

  if (r.body === 'json') {
    it.each(roles)(
      'should refuse broken JSON, wrong types, nulls, huge and malformed text (as %s) with a JSON 4xx and change nothing',
      async (role) => {
        await expectEveryAnswer(jsonCorpus(r, role));
      },
    );
  }

  if (r.body === 'multipart') {
    it.each(roles)(
      'should refuse renamed SVGs, non-images, broken and oversized multipart bodies (as %s) and store nothing',
      async (role) => {
        await expectEveryAnswer(uploadCases(role));
      },
    );
  }

  if (r.withId) {
    it.each(roles)('should refuse hostile ids (as %s) with a JSON 4xx and change nothing', async (role) => {
      await expectEveryAnswer(idCases(r, role));
    });
  }

  if (r.query) {
    it.each(roles)(
      'should refuse missing, malformed, out-of-range and hostile query parameters (as %s) with a JSON 400 and change nothing',
      async (role) => {
        await expectEveryAnswer(queryCases(r, role));
      },
    );
  }

  if (r.method === 'GET') {
    it.each(roles)('should answer odd request headers (as %s) as usual, never with a 5xx', async (role) => {
      await expectEveryAnswer(readHeaderCases(r, role));
    });
  }

  if (r.admin) {
    it('should refuse forged, expired and logged-out session cookies with 401 and change nothing', async () => {
      const body = r.body === 'json' ? json(r.valid!()) : r.body === 'multipart' ? multipartBody(JPEG) : null;
      const type = r.body === 'json' ? 'application/json' : r.body === 'multipart' ? MULTIPART_TYPE : null;
      const cookies: [string, string][] = [
        ['a forged token', `kaspiy_admin=${'0123456789abcdef'.repeat(4)}`],
        ['an empty token', 'kaspiy_admin='],
        ['an expired session', s.expiredCookie],
        ['a logged-out session', s.loggedOutCookie],
        ['the stored hash of a live token', `kaspiy_admin=${await sha256Hex(s.token)}`],
        ['a live token in upper case', `kaspiy_admin=${s.token.toUpperCase()}`],
        ['a live token one character short', `kaspiy_admin=${s.token.slice(0, -1)}`],
        ['a live token with one more character', `kaspiy_admin=${s.token}0`],
        ['a live token under another cookie name', `Kaspiy_Admin=${s.token}`],
        ['a live token in a cookie named like it', `kaspiy_admin_old=${s.token}`],
        ['SQL in the cookie', "kaspiy_admin=' OR '1'='1"],
        ['a NUL in the cookie', 'kaspiy_admin=%00'],
        ['a broken percent escape', 'kaspiy_admin=%E0%A4%A'],
        ['a lone surrogate escape', 'kaspiy_admin=%ED%A0%80'],
        ['an 8 KB token', `kaspiy_admin=${'a'.repeat(8192)}`],
      ];
      await expectEveryAnswer(
        cookies.map(([label, cookie]) => ({
          label,
          send: () => request(r.method, r.path(), { role: cookie, body, type }),
          status: [401],
          error: MSG.unauthorized,
        })),
      );
    });
  }
});

describe('a logout, which reads no body and ends only a session it knows', () => {
  it('should answer any body, type and cookie with 200 and change nothing', async () => {
    const before = await snapshot();
    const bodies: [string, Body, string | null][] = [
      ['malformed JSON', '{', 'application/json'],
      ['10 MB + 1 byte', HUGE_JSON, 'application/json'],
      ['a renamed SVG', multipartBody(enc.encode('<svg/>')), MULTIPART_TYPE],
      ['text', 'x', 'text/plain'],
    ];
    for (const [label, body, type] of bodies) {
      for (const cookie of [
        undefined,
        s.loggedOutCookie,
        `kaspiy_admin=${'f'.repeat(64)}`,
        "kaspiy_admin=' OR 1=1 --",
      ]) {
        const res = await send('POST', '/api/admin/logout', {
          cookie,
          body,
          headers: type ? { 'content-type': type } : {},
        });
        expect(res.status, `${label} with ${cookie ?? 'no cookie'}`).toBe(200);
        expect(await res.json()).toEqual({ success: true });
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('hostile text that is valid input', () => {
  /** Wrapped, so no edge whitespace is trimmed away: what is sent is what must be stored. */
  const wrap = (text: string) => `«${text}»`;

  it.each(HOSTILE_TEXT)('should store a review with %s verbatim, as text', async (_, text) => {
    const res = await send('POST', '/api/reviews', {
      body: json(validReview({ name: wrap(text).slice(0, 100), comment: wrap(text) })),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as InferResponseType<Api['reviews']['$post'], 201>;
    const row = await env.DB.prepare('SELECT name, comment, approved FROM reviews WHERE id = ?')
      .bind(id)
      .first<{ name: string; comment: string; approved: number }>();
    expect(row).toEqual({ name: wrap(text).slice(0, 100), comment: wrap(text), approved: 0 });
    // And the admin reads back exactly the same characters through JSON.
    const list = (await (await request('GET', '/api/reviews', { role: 'admin' })).json()) as InferResponseType<
      Api['reviews']['$get'],
      200
    >;
    expect(list.find((r) => r.id === id)?.comment).toBe(wrap(text));
  });

  it.each(HOSTILE_TEXT)('should store a cabin created and edited with %s verbatim', async (_, text) => {
    const fields = {
      name: wrap(text),
      description: wrap(text),
      location: wrap(text),
      distanceToSea: wrap(text).slice(0, 60),
      amenities: [wrap(text).slice(0, 60)],
    };
    const created = await request('POST', '/api/cabins', {
      role: 'admin',
      body: json({ ...sampleCabin(), ...fields }),
      type: 'application/json',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as InferResponseType<Api['cabins']['$post'], 201>;
    const read = async () =>
      env.DB.prepare(
        'SELECT name, description, location, distance_to_sea AS distanceToSea, amenities FROM cabins WHERE id = ?',
      )
        .bind(id)
        .first<Record<string, string>>();
    expect(await read()).toEqual({ ...fields, amenities: JSON.stringify(fields.amenities) });

    const edited = await request('PUT', `/api/cabins/${id}`, {
      role: 'admin',
      body: json({ name: `${wrap(text)}!` }),
      type: 'application/json',
    });
    expect(edited.status).toBe(200);
    expect((await read())!.name).toBe(`${wrap(text)}!`);
    const shown = (await (await send('GET', `/api/cabins/${id}`)).json()) as InferResponseType<
      Api['cabins'][':id']['$get'],
      200
    >;
    expect(shown.name).toBe(`${wrap(text)}!`);
  });

  it.each(HOSTILE_TEXT)('should store settings and a moderated review with %s verbatim', async (_, text) => {
    const saved = await request('PUT', '/api/settings', {
      role: 'admin',
      type: 'application/json',
      body: json({
        heroTitle: wrap(text),
        footerDescription: wrap(text),
        contactInfo: { address: wrap(text) },
        whyChooseUsFeatures: [{ title: wrap(text), description: wrap(text) }],
      }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const stored = Object.fromEntries(
      (await env.DB.prepare('SELECT key, value FROM settings').all<{ key: string; value: string }>()).results.map(
        (r) => [r.key, JSON.parse(r.value)],
      ),
    );
    expect(stored).toMatchObject({
      heroTitle: wrap(text),
      footerDescription: wrap(text),
      'contactInfo.address': wrap(text),
      whyChooseUsFeatures: [{ title: wrap(text), description: wrap(text) }],
    });
    const pub = (await (await send('GET', '/api/settings')).json()) as InferResponseType<Api['settings']['$get'], 200>;
    expect(pub.heroTitle).toBe(wrap(text));

    const moderated = await request('PUT', `/api/reviews/${s.review}`, {
      role: 'admin',
      type: 'application/json',
      body: json({ comment: wrap(text) }),
    });
    expect(moderated.status).toBe(200);
    expect(
      (await env.DB.prepare('SELECT comment FROM reviews WHERE id = ?').bind(s.review).first<{ comment: string }>())!
        .comment,
    ).toBe(wrap(text));
  });

  it.each(HOSTILE_TEXT)(
    'should take %s as a login name verbatim and refuse it as a wrong login with 401',
    async (_, text) => {
      const before = await snapshot();
      const res = await send('POST', '/api/admin/login', {
        body: json({ username: wrap(text), password: wrap(text) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: MSG.loginFailed });
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('should store a hostile admin login name verbatim, and sign in with exactly it', async () => {
    const username = 'адм\u202Ein<script>\u0000😀';
    try {
      const res = await request('PUT', '/api/admin/credentials', {
        role: 'admin',
        type: 'application/json',
        body: json({ username, currentPassword: ADMIN_PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(
        (await env.DB.prepare('SELECT username FROM users WHERE id = 1').first<{ username: string }>())!.username,
      ).toBe(username);
      const ok = await send('POST', '/api/admin/login', {
        body: json({ username, password: ADMIN_PASSWORD }),
        headers: { 'content-type': 'application/json' },
      });
      expect(ok.status).toBe(200);
      const without = await send('POST', '/api/admin/login', {
        body: json({ username: username.replace('\u0000', ''), password: ADMIN_PASSWORD }),
        headers: { 'content-type': 'application/json' },
      });
      expect(without.status).toBe(401);
    } finally {
      await env.DB.prepare('UPDATE users SET username = ? WHERE id = 1').bind(ADMIN_USERNAME).run();
    }
  });
});

describe('media keys', () => {
  const PRIVATE = '<html><script>alert(document.domain)</script></html>';

  beforeAll(async () => {
    // Objects a traversal would like to reach: names the upload route never makes.
    await env.MEDIA.put('secret.txt', PRIVATE, { httpMetadata: { contentType: 'text/html' } });
    await env.MEDIA.put('private/a.jpg', JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
    await env.MEDIA.put('../up.jpg', JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
    await env.MEDIA.put('a.svg', '<svg onload="alert(1)"/>', { httpMetadata: { contentType: 'image/svg+xml' } });
  });

  const KEYS = [
    '..%2Fsecret.txt',
    '..%2F..%2Fsecret.txt',
    '%2e%2e%2fsecret.txt',
    '%2E%2E%2Fup.jpg',
    '..%2Fup.jpg',
    '%252e%252e%252fsecret.txt',
    '..%5Csecret.txt',
    '%2e%2e%5cup.jpg',
    'private%2Fa.jpg',
    'private/a.jpg',
    'private%5Ca.jpg',
    '%2Fprivate%2Fa.jpg',
    '%2F%2Fevil.example%2Fa.jpg',
    'http:%2F%2Fevil.example%2Fa.jpg',
    'https://evil.example/a.jpg',
    'file:%2F%2F%2Fetc%2Fpasswd',
    '%C0%AE%C0%AE%2Fsecret.txt',
    '%E2%80%A4%E2%80%A4%2Fsecret.txt',
    'secret.txt',
    'a.svg',
    'a.svg%00.jpg',
    'a.jpg%00.svg',
    '%00',
    'a.jpg%0D%0ASet-Cookie:%20x=1',
    '.jpg',
    'x.JPG',
    'x.jpeg',
    'x.jpg.html',
    `${'a'.repeat(5000)}.jpg`,
    '%E2%80%AEgpj.jpg',
    '%F0%9F%98%80.jpg',
    '%ED%A0%80.jpg',
    '11111111-2222-3333-4444-555555555555.jpg%2F..%2F..%2Fsecret.txt',
    '11111111-2222-3333-4444-555555555555.jpg/extra',
    '11111111-2222-3333-4444-555555555555.jpg;.html',
    '11111111-2222-3333-4444-555555555555.jpg%3F.html',
  ];

  it('should answer every traversal, encoded slash and absolute address under /media/ with a JSON 404, never an object', async () => {
    const cases: Case[] = KEYS.map((key) => ({
      label: key.slice(0, 60),
      send: async () => {
        const res = await send('GET', `/media/${key}`);
        expect(new URL(`http://h/media/${key}`).pathname.startsWith('/media/'), key).toBe(true);
        expect(res.headers.get('content-type'), key).not.toMatch(/^(image|text\/html)/);
        return res;
      },
      status: [404],
      error: MSG.notFound,
    }));
    await expectEveryAnswer(cases);
  });

  it('should never reach outside /media/ through dot segments: the address is resolved before the worker sees it', async () => {
    // `/media/%2e%2e/secret.txt` is `/secret.txt` to every URL parser (the browser's,
    // Cloudflare's, ours): not a media request at all, and no media object answers it.
    for (const key of ['%2e%2e/secret.txt', '../secret.txt', '.%2e/up.jpg']) {
      const res = await send('GET', `/media/${key}`);
      expect(res.status, key).toBe(404);
      expect(await res.text()).not.toContain(PRIVATE);
    }
  });
});

describe('a polyglot upload', () => {
  /**
   * Our choice: a file that starts with a real GIF (or JPEG) signature is stored as that image
   * type, even if HTML follows. The worker cannot decode images, and a valid GIF may carry any
   * bytes in a comment block, so «refuse GIFs that contain <script>» would be a blacklist with
   * holes. Safety is at serving time instead: the photo is only ever sent as its image type with
   * nosniff (no browser renders it as HTML) and `default-src 'none'; sandbox` (even if something
   * did, no script could run and it would have no origin).
   */
  it.each([
    [
      'GIF header followed by HTML',
      enc.encode(
        'GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;<html><body><script>alert(document.domain)</script></body></html>',
      ),
      'gif',
      'image/gif',
    ],
    [
      'JPEG signature followed by HTML',
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...enc.encode('<script>alert(1)</script>')]),
      'jpg',
      'image/jpeg',
    ],
    ['GIF named .html and declared text/html', GIF, 'gif', 'image/gif'],
  ])('should store a %s as an image only, and serve it so it can never run', async (label, bytes, ext, mime) => {
    const res = await request('POST', '/api/upload', {
      role: 'admin',
      type: MULTIPART_TYPE,
      body: multipartBody(
        bytes,
        label.includes('.html') ? 'page.html' : 'photo.gif',
        label.includes('.html') ? 'text/html' : 'image/gif',
      ),
    });
    expect(res.status).toBe(201);
    const { imageUrl } = (await res.json()) as Uploaded;
    expect(imageUrl).toMatch(new RegExp(`^/media/[0-9a-f-]{36}\\.${ext}$`));
    const object = await env.MEDIA.get(imageUrl.slice('/media/'.length));
    expect(object!.httpMetadata?.contentType).toBe(mime);

    const served = await send('GET', imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(mime);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe(MEDIA_CSP);
    expect(served.headers.get('content-disposition')).toBeNull();
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    await env.MEDIA.delete(imageUrl.slice('/media/'.length));
  });
});
