import type { AuditKind, Role } from '../../schema/account.ts';
import { PAYMENT_SETTING_FIELDS } from '../../schema/settings.ts';
import type { Bindings } from '../env.ts';
import { getAdminPath } from '../queries/admin.ts';
import { getBooking } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { getReview } from '../queries/reviews.ts';
import { readReplyTemplates } from '../queries/reply-templates.ts';
import { getSettings } from '../queries/settings.ts';
import { sessionOwner } from '../queries/sessions.ts';

/**
 * Who may call each admin route, in one table (docs/api.md «The owner's account»). The
 * owner may call all of them; a manager (`staff`) handles requests, the calendar, prices, cabins
 * and reviews, but gets 403 «Недостаточно прав» on payment, channel and account settings, users,
 * credentials, the admin path and exports. requireAdmin looks every request up here: a route
 * missing from the table is the owner's alone, and test/worker/account.test.ts fails until a new
 * route is classified.
 *
 * Each entry also says what «Журнал» calls a write (`kind`, `label`), may read the values a write
 * replaces (`before`, for the record), and may name body fields only the owner may change
 * (`ownerFields`: a manager's save may carry them only unchanged, so a form sending back what it
 * read still saves). Data a route scopes to the person (their own sessions) is its own business.
 *
 * A cleaner (`cleaner`) reaches only the routes marked so: «Сегодня», which answers them the tasks
 * of their own cabins and no guest, and ticking a task of those cabins. Everything else, their own
 * session's «who am I» included, is 403 to them.
 */
export type Access = 'cleaner' | 'staff' | 'owner';
type Params = Record<string, string>;
export type RouteRule = {
  access: Access;
  kind: AuditKind;
  label: string;
  /** The values a write is about to replace, for the record; read before the route runs. */
  before?: (env: Bindings, params: Params) => Promise<unknown>;
  ownerFields?: readonly string[];
};

const staff = (kind: AuditKind, label: string, more: Partial<RouteRule> = {}): RouteRule => ({
  access: 'staff',
  kind,
  label,
  ...more,
});
const cleaner = (kind: AuditKind, label: string, more: Partial<RouteRule> = {}): RouteRule => ({
  access: 'cleaner',
  kind,
  label,
  ...more,
});
const owner = (kind: AuditKind, label: string, more: Partial<RouteRule> = {}): RouteRule => ({
  access: 'owner',
  kind,
  label,
  ...more,
});

const idOf = (p: Params) => {
  const id = Number(p.id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};
const cabinBefore = async (env: Bindings, p: Params) => {
  const id = idOf(p);
  return id === null ? undefined : getCabin(env, id);
};
const reviewBefore = async (env: Bindings, p: Params) => {
  const id = idOf(p);
  const review = id === null ? undefined : await getReview(env, id);
  if (!review) return undefined;
  const { email: _email, ...rest } = review;
  return rest;
};
// An ended session is named by whose it was and the device, not only by its number.
const sessionBefore = async (env: Bindings, p: Params) => {
  const id = idOf(p);
  return id === null ? undefined : sessionOwner(env, id);
};
const bookingStatusBefore = async (env: Bindings, p: Params) => {
  const id = idOf(p);
  const booking = id === null ? undefined : await getBooking(env, id);
  return booking && { status: booking.status };
};

const stayBefore = async (env: Bindings, p: Params) => {
  const id = idOf(p);
  const booking = id === null ? undefined : await getBooking(env, id);
  return booking && { arrivedAt: booking.arrivedAt, departedAt: booking.departedAt, departedOn: booking.departedOn };
};

/**
 * Settings only the owner changes: how guests pay, what a cancellation costs them, and what the
 * site tells Yandex (the counter that sees every visitor, the key that speaks for the domain).
 */
export const OWNER_SETTINGS = [...PAYMENT_SETTING_FIELDS, 'cancellation', 'promotion'] as const;

export const ROUTE_RULES: Record<string, RouteRule> = {
  // Who is signed in, and their own account: a manager has a password and two-factor of their own.
  'GET /api/admin/session': staff('account', 'Проверка входа'),
  'PUT /api/admin/credentials': staff('account', 'Смена логина или пароля'),
  'POST /api/admin/2fa/setup': staff('account', 'Настройка двухфакторного входа'),
  'POST /api/admin/2fa/enable': staff('account', 'Двухфакторный вход включён'),
  'POST /api/admin/2fa/disable': staff('account', 'Двухфакторный вход выключен'),
  'POST /api/admin/2fa/recovery-codes': staff('account', 'Новые коды восстановления'),
  'GET /api/admin/sessions': staff('account', 'Список сеансов'),
  'DELETE /api/admin/sessions/:id': staff('account', 'Сеанс завершён', { before: sessionBefore }),
  'DELETE /api/admin/sessions': staff('account', 'Завершены все другие сеансы'),
  // The owner's alone: people, the panel's address, the record.
  'GET /api/admin/users': owner('account', 'Список пользователей'),
  'POST /api/admin/users': owner('account', 'Добавлен пользователь'),
  'DELETE /api/admin/users/:id': owner('account', 'Удалён пользователь'),
  // A cleaner's private sign-in link: «Журнал» records that it was made or revoked, never the link.
  'POST /api/admin/users/:id/link': owner('account', 'Ссылка для входа уборщика'),
  'DELETE /api/admin/users/:id/link': owner('account', 'Отозвана ссылка для входа уборщика'),
  'DELETE /api/admin/users/:id/messengers': owner('account', 'Отвязаны мессенджеры уборщика'),
  'GET /api/admin/path': owner('account', 'Адрес панели'),
  'PUT /api/admin/path': owner('account', 'Смена адреса панели', {
    before: async (env) => ({ path: await getAdminPath(env) }),
  }),
  'GET /api/admin/audit': owner('account', 'Журнал'),

  'GET /api/admin/cabins': staff('cabins', 'Список домиков'),
  'POST /api/cabins': staff('cabins', 'Добавлен домик'),
  'PUT /api/cabins/:id': staff('cabins', 'Изменён домик', { before: cabinBefore }),
  'DELETE /api/cabins/:id': staff('cabins', 'Удалён домик', { before: cabinBefore }),
  'GET /api/admin/cabins/:id/instructions': staff('cabins', 'Инструкция для гостей'),
  'PUT /api/admin/cabins/:id/instructions': staff('cabins', 'Изменена инструкция для гостей'),
  'POST /api/upload': staff('site', 'Загружено фото'),
  'GET /api/admin/publish': staff('site', 'Состояние публикации'),
  'POST /api/admin/publish': staff('site', 'Повторная публикация сайта'),

  'GET /api/admin/bookings': staff('bookings', 'Список заявок'),
  'PUT /api/admin/bookings/:id': staff('bookings', 'Изменён статус заявки', { before: bookingStatusBefore }),
  'DELETE /api/admin/bookings/:id': staff('bookings', 'Удалена заявка', { before: bookingStatusBefore }),
  'GET /api/admin/bookings/:id/messages': staff('bookings', 'Письма гостю'),
  'POST /api/admin/bookings/:id/messages/:kind/retry': staff('bookings', 'Письмо гостю отправлено снова'),
  'GET /api/admin/payments': staff('bookings', 'Состояние оплаты'),
  // A link for the guest to pay takes money in; a refund sends it out, so it is the owner's.
  'POST /api/admin/bookings/:id/payment-link': staff('bookings', 'Ссылка на оплату'),
  'POST /api/admin/bookings/:id/refund': owner('payments', 'Возврат предоплаты', { before: bookingStatusBefore }),
  'POST /api/admin/bookings/:id/deposit/release': owner('payments', 'Залог возвращён'),
  'POST /api/admin/bookings/:id/deposit/keep': owner('payments', 'Удержана часть залога'),

  // «Сегодня»: the day's guests and the tasks at the cabins, for whoever runs the day; a cleaner
  // sees their cabins' tasks there and ticks them (worker/routes/today.ts narrows both).
  'GET /api/admin/today': cleaner('bookings', 'Сегодня'),
  // The cleaner's own morning list: the route answers only a cleaner, of their own chats.
  'GET /api/admin/today/messengers': cleaner('account', 'Куда приходит список уборок'),
  'POST /api/admin/today/messengers/:channel': cleaner('account', 'Ссылка на бота для списка уборок'),
  'PUT /api/admin/bookings/:id/stay': staff('bookings', 'Отмечен заезд или выезд', { before: stayBefore }),
  'GET /api/admin/tasks': staff('calendar', 'Задачи по домикам'),
  'POST /api/admin/tasks': staff('calendar', 'Добавлена задача'),
  'PUT /api/admin/tasks/:id': cleaner('calendar', 'Изменена задача'),
  // The photo of a ticked task: the route narrows a cleaner to their own cabins' tasks, as above.
  'PUT /api/admin/tasks/:id/photo': cleaner('calendar', 'Фото к задаче'),
  'GET /api/admin/tasks/:id/photo': cleaner('calendar', 'Фото задачи'),

  'GET /api/admin/occupancy': staff('calendar', 'Шахматка'),
  'GET /api/admin/cabins/:id/calendar': staff('calendar', 'Календарь домика'),
  'PUT /api/admin/cabins/:id/seasons': staff('pricing', 'Изменены сезоны'),
  'POST /api/admin/cabins/:id/blocks': staff('calendar', 'Закрыты даты'),
  'DELETE /api/admin/blocks/:id': staff('calendar', 'Открыты даты'),
  'POST /api/admin/calendar-sync': staff('calendar', 'Синхронизация календарей'),
  // Where the calendars come from and go to are channel settings.
  'PUT /api/admin/cabins/:id/feeds': owner('channels', 'Изменены календари площадок'),
  'POST /api/admin/cabins/:id/ical-token': owner('channels', 'Новый адрес экспорта календаря'),
  'POST /api/admin/feeds/:cabinId/:index/accept-empty': owner('channels', 'Принят пустой календарь площадки'),

  'GET /api/admin/channels': staff('channels', 'Площадки'),
  'POST /api/admin/channels/sync': staff('channels', 'Синхронизация площадок'),
  'GET /api/admin/conflicts': staff('channels', 'Пересечения бронирований'),
  'GET /api/admin/channels/stays': staff('channels', 'Бронирования с площадок'),
  'PUT /api/admin/channels/avito': owner('channels', 'Подключён Авито'),
  'DELETE /api/admin/channels/avito': owner('channels', 'Отключён Авито'),
  'PUT /api/admin/cabins/:id/channels': owner('channels', 'Изменена привязка к Авито'),

  'GET /api/admin/pricing': staff('pricing', 'Скидки и услуги'),
  'PUT /api/admin/pricing': staff('pricing', 'Изменены скидки и услуги'),
  'GET /api/admin/promo-codes': staff('pricing', 'Промокоды'),
  'PUT /api/admin/promo-codes': staff('pricing', 'Изменены промокоды'),
  'GET /api/admin/cabins/:id/date-prices': staff('pricing', 'Цены по датам'),
  'PUT /api/admin/cabins/:id/date-prices': staff('pricing', 'Изменены цены по датам'),

  'GET /api/reviews': staff('reviews', 'Список отзывов'),
  'PUT /api/reviews/:id': staff('reviews', 'Изменён отзыв', { before: reviewBefore }),
  'DELETE /api/reviews/:id': staff('reviews', 'Удалён отзыв', { before: reviewBefore }),

  'GET /api/admin/settings': staff('settings', 'Настройки'),
  'PUT /api/settings': staff('settings', 'Изменены настройки', {
    before: (env) => getSettings(env),
    ownerFields: OWNER_SETTINGS,
  }),

  // The owner's numbers: figures without a guest's name a manager may read; the
  // accountant's files name guests and their phones, so they are the owner's.
  'GET /api/admin/reports/summary': staff('bookings', 'Сводка'),
  'GET /api/admin/reports/tourist-tax': staff('bookings', 'Отчёт по туристическому налогу'),
  'GET /api/admin/reports/funnel': staff('bookings', 'Воронка и источники'),
  'GET /api/admin/reports/bookings.csv': owner('bookings', 'Выгрузка бронирований (CSV)'),
  'GET /api/admin/reports/bookings.xlsx': owner('bookings', 'Выгрузка бронирований (XLSX)'),

  // «С чего начать»: the owner's first steps, and the demo's removal, which deletes content.
  'GET /api/admin/checklist': owner('site', 'С чего начать'),
  'PUT /api/admin/checklist': owner('site', 'Скрыт или показан список «С чего начать»'),
  'GET /api/admin/demo': owner('site', 'Демо-данные'),
  'DELETE /api/admin/demo': owner('site', 'Убраны демо-данные'),

  // The owner's messenger alerts: the bot's token is a credential.
  'GET /api/admin/max': owner('notifications', 'Уведомления в MAX'),
  'PUT /api/admin/max': owner('notifications', 'Подключён бот MAX'),
  'DELETE /api/admin/max': owner('notifications', 'Отключён бот MAX'),
  'POST /api/admin/max/check': owner('notifications', 'Проверка бота MAX'),
  'POST /api/admin/max/test': owner('notifications', 'Пробное уведомление в MAX'),
  'GET /api/admin/messengers': owner('notifications', 'Мессенджеры гостей'),
  'PUT /api/admin/messengers': owner('notifications', 'Изменены боты Telegram или MAX или SMS для гостей'),

  // «Продвижение»: what the site tells search engines speaks for the domain.
  'GET /api/admin/indexnow': owner('site', 'IndexNow'),

  // «Сообщения»: a manager answers guests as the owner does.
  'GET /api/admin/threads': staff('messages', 'Список переписок'),
  'GET /api/admin/threads/:id': staff('messages', 'Переписка с гостем'),
  'POST /api/admin/threads/:id/messages': staff('messages', 'Ответ гостю'),
  'POST /api/admin/threads/:id/read': staff('messages', 'Переписка прочитана'),
  'GET /api/admin/reply-templates': staff('messages', 'Шаблоны ответов'),
  'PUT /api/admin/reply-templates': staff('messages', 'Шаблоны ответов и автоответ', { before: readReplyTemplates }),
};

/** Whether a person of this role may call a route of this access (a route nobody classified is the owner's). */
export const mayCall = (role: Role, access: Access | undefined): boolean =>
  role === 'owner' || (role === 'manager' && (access === 'staff' || access === 'cleaner')) || access === 'cleaner';

/** The rule of `METHOD /pattern`, undefined for a route nobody classified (then the owner's alone). */
export const ruleOf = (method: string, pattern: string): RouteRule | undefined => ROUTE_RULES[`${method} ${pattern}`];
