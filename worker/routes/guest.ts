import { Hono, type Context } from 'hono';
import { guestPageUrl } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { cancelAsGuest } from '../guest/cancel.ts';
import { currentStay as current, guestToday as today } from '../guest/current.ts';
import { guestPageAnswer, stayMoney } from '../guest/page.ts';
import { stayCalendar } from '../guest/stay-ics.ts';
import { afterResponse } from '../lib/background.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { startBalance } from '../payments/balance.ts';
import {
  currentOf,
  depositRuleOf,
  holdsRefused,
  startDeposit,
  tellOwnerHoldsOff,
  whyNoDeposit,
} from '../payments/deposits.ts';
import { DEPOSIT_MSG } from '../../schema/deposits.ts';
import { messageForLog } from '../lib/for-log.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { docs } from '../lib/openapi.ts';
import { changeAnswer, changeQuoteAnswer, guestPageAnswer as guestPageJson } from '../../schema/answers.ts';
import { changeInputSchema, changeQuerySchema } from '../../schema/date-change.ts';
import { changeAsGuest, quoteChange } from '../guest/change.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { html } from 'hono/html';
import {
  TELEGRAM_CONSENT_TEXT,
  TELEGRAM_LINK_THROTTLE,
  TELEGRAM_LINK_TTL_MS,
  telegramDeepLink,
  telegramLinkAnswer,
} from '../../schema/telegram.ts';
import { hit } from '../queries/rate-limit.ts';
import { newLinkCode } from '../queries/guest-bots.ts';
import { readTelegramBot } from '../queries/telegram-bot.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { MAX_CONSENT_TEXT, maxLinkAnswer, maxStartLink } from '../../schema/max.ts';

const doc = docs('Страница гостя');

type C = Context<AppEnv>;
const later = (c: C) => (label: string, task: Promise<unknown>) => afterResponse(c, label, task);
/** The public address the guest comes back to: SITE_URL, else the one they came by. */
const originOf = (c: C) => c.env.SITE_URL || new URL(c.req.url).origin;

const notFound = (c: C) => apiError(c, 404, MSG.guestPageNotFound);

/** A page that opens the bot's link at once, with the link itself for a browser that does not follow. */
const openLinkPage = (url: string) =>
  html`<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="0;url=${url}"><title>Открываем Telegram</title></head><body><p><a href="${url}">Открыть Telegram</a> и нажать «Запустить» (Start).</p></body></html>`;
const openMaxPage = (url: string) =>
  html`<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="0;url=${url}"><title>Открываем MAX</title></head><body><p><a href="${url}">Открыть MAX</a> и нажать «Начать».</p></body></html>`;

/** The page's plain form, before its script has come, posts a form: it is answered with a page. */
const fromForm = (c: C) => {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
};

/**
 * The guest's own page (docs/api.md «The guest's page and messages»), public under
 * /api/guest/{token}: the token, 144 random bits, is the only key. Never cached, never indexed.
 */
export const guestRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next();
    c.header('cache-control', 'no-store');
    c.header('x-robots-tag', 'noindex, nofollow');
  })
  .get('/:token', doc('Бронь гостя по его ссылке', { answer: guestPageJson, errors: [404] }), async (c) => {
    const l = await current(c, c.req.param('token'));
    if (!l) return notFound(c);
    return c.json(guestPageAnswer(l, today(), yookassaOf(c.env) !== null));
  })
  /** The rest of the price, paid through ЮKassa: its payment page's address (the same while one is pending). */
  .post('/:token/pay', doc('Оплатить остаток', { errors: [404, 409, 502] }), async (c) => {
    const token = c.req.param('token');
    const l = await current(c, token);
    if (!l) return notFound(c);
    const { due } = stayMoney(l);
    if (due <= 0) return apiError(c, 409, MSG.guestNothingDue);
    if (l.booking.status !== 'confirmed') return apiError(c, 409, MSG.guestPayNotConfirmed);
    if (!yookassaOf(c.env)) return apiError(c, 503, MSG.guestPayUnavailable);
    const pending = l.payments.find(
      (p) => p.kind === 'balance' && p.status === 'pending' && p.amount === due && p.confirmationUrl,
    );
    if (pending) return c.json({ confirmationUrl: pending.confirmationUrl, amount: pending.amount });
    try {
      return c.json(
        await startBalance(c.env, l.booking, l.cabinName, l.payments, due, {
          vatCode: l.settings.vatCode,
          origin: originOf(c),
        }),
      );
    } catch (err) {
      console.error(
        `The balance payment of booking ${l.booking.id} could not be created:`,
        err instanceof Error ? err.message : err,
      );
      return apiError(c, 502, MSG.guestPayUnavailable);
    }
  })
  /**
   * «Внести залог»: a hold on the guest's card at ЮKassa (`capture: false`), or where a hold cannot
   * be used and the owner chose so a payment refunded after departure (`capture: true`), from
   * `askDaysBefore` days before arrival until arrival; the same page's address while one is started
   * and not finished.
   */
  .post(
    '/:token/deposit',
    doc('Внести залог', {
      errors: [404, 409, 502, 503],
      description:
        'Блокировка на карте гостя (`capture: false`), а где блокировка невозможна (проживание + 2 дня длиннее ' +
        '7 дней ЮKassa или магазин без двухстадийных платежей) и хозяин так выбрал — обычный платёж с чеком ' +
        '(`capture: true`), который возвращается после выезда. Какой из двух, `deposit.mode` в `GET /guest/{token}` ' +
        'говорит до оплаты. Ответ — `{ confirmationUrl }` страницы оплаты ЮKassa.',
    }),
    async (c) => {
      const l = await current(c, c.req.param('token'));
      if (!l) return notFound(c);
      const rule = depositRuleOf(l.booking, l.cabinDeposit, l.settings);
      const held = currentOf(l.deposits);
      if (held?.status === 'pending' && held.confirmationUrl) return c.json({ confirmationUrl: held.confirmationUrl });
      const why = whyNoDeposit(l.booking, rule, held, today());
      if (why || !rule) return apiError(c, 409, why ?? DEPOSIT_MSG.none);
      if (!yookassaOf(c.env)) return apiError(c, 503, MSG.guestPayUnavailable);
      try {
        return c.json(
          await startDeposit(c.env, l.booking, l.cabinName, rule, l.deposits.length, {
            vatCode: l.settings.vatCode,
            origin: originOf(c),
          }),
        );
      } catch (err) {
        console.error(`The deposit of booking ${l.booking.id} could not be made:`, messageForLog(err));
        // The shop has no two-stage payments: the owner must act; the guest is told it is not their card.
        if (holdsRefused(err)) {
          afterResponse(c, 'Deposit refusal notice', tellOwnerHoldsOff(c.env, l.booking, l.cabinName));
          return apiError(c, 502, DEPOSIT_MSG.guestHoldsOff);
        }
        return apiError(c, 502, MSG.guestPayUnavailable);
      }
    },
  )
  /**
   * «Перенести даты»: the new stay priced by the one quote function, with what the change pays or
   * gives back; 400 outside the owner's rules, 409 when the nights are not free.
   */
  .get(
    '/:token/change',
    doc('Цена переноса дат', { answer: changeQuoteAnswer, errors: [400, 404, 409] }),
    validate('query', changeQuerySchema),
    async (c) => {
      const l = await current(c, c.req.param('token'));
      if (!l) return notFound(c);
      const q = c.req.valid('query');
      const quoted = await quoteChange(c.env, l, q, today());
      if (!quoted.ok) return apiError(c, quoted.status, quoted.error);
      const { change } = quoted;
      return c.json({
        quote: change.quote,
        cabin: { id: change.target.cabinId, name: change.cabinName },
        difference: change.difference,
        due: change.due,
        refund: change.refund,
      });
    },
  )
  /**
   * Moves the stay: at once when it costs the same or less (what was overpaid goes back by the
   * cancellation policy), else the new nights are held while the guest pays the difference on
   * ЮKassa's page (`confirmationUrl`); not paid in the hold time, the old dates stand.
   */
  .post(
    '/:token/change',
    doc('Перенести даты', { answer: changeAnswer, errors: [400, 404, 409, 413, 415, 502, 503] }),
    jsonBody,
    validate('json', changeInputSchema),
    async (c) => {
      const l = await current(c, c.req.param('token'));
      if (!l) return notFound(c);
      const result = await changeAsGuest(c.env, l, c.req.valid('json'), today(), {
        origin: originOf(c),
        later: later(c),
      });
      if (!result.ok) return apiError(c, result.status, result.error);
      return c.json(result.answer);
    },
  )
  .post('/:token/cancel', doc('Отменить бронь по правилам отмены', { errors: [404, 409] }), async (c) => {
    const token = c.req.param('token');
    const l = await current(c, token);
    if (!l) return notFound(c);
    const result = await cancelAsGuest(c.env, token, l, today(), later(c));
    if (!result.ok) return apiError(c, result.status, result.error);
    return c.json(result.answer);
  })
  /**
   * «Получать сообщения в Telegram»: a deep link to the owner's bot with a one-time code (30
   * minutes, once; only its hash is kept, and never the page's token: the link passes through
   * Telegram). The tap is the guest's consent to the transfer, kept with the code in the words
   * beside the button. The island reads `{ url }`; the page's plain form, before its script has
   * come, gets a page that opens the link (a redirect after a form would be blocked by the
   * pages' form-action policy).
   */
  .post(
    '/:token/link/telegram',
    doc('Ссылка на бота Telegram для сообщений о брони', {
      answer: telegramLinkAnswer,
      errors: [404, 409, 429],
      description:
        'Одноразовая ссылка t.me на 30 минут. Форма страницы без скрипта (application/x-www-form-urlencoded) получает HTML-страницу, которая открывает ссылку.',
    }),
    async (c) => {
      const token = c.req.param('token');
      const [l, bot] = await Promise.all([current(c, token), readTelegramBot(c.env)]);
      if (!l) return notFound(c);
      if (!bot) return apiError(c, 409, MSG.telegramNotConnected);
      if ((await hit(c.env, `tglink:${l.booking.id}`, TELEGRAM_LINK_THROTTLE.windowMs)) > TELEGRAM_LINK_THROTTLE.max)
        return apiError(c, 429, MSG.telegramLinkThrottled);
      const { code } = await newLinkCode(c.env, l.booking.id, TELEGRAM_CONSENT_TEXT, TELEGRAM_LINK_TTL_MS);
      const url = telegramDeepLink(bot.username, code);
      if (fromForm(c)) return c.html(openLinkPage(url));
      return c.json({ url });
    },
  )
  /**
   * «Получать сообщения в MAX»: the same for the owner's MAX bot (the one of the alerts): a link
   * max.ru/{bot}?start={code} with a one-time code of MAX's (30 minutes, once, only its hash kept,
   * never the page's token); the guest's «Начать» hands the code to the bot. 404 as for an unknown
   * page when no MAX bot is connected, so the page's token tells nothing more.
   */
  .post(
    '/:token/link/max',
    doc('Ссылка на бота MAX для сообщений о брони', {
      answer: maxLinkAnswer,
      errors: [404, 429],
      description:
        'Одноразовая ссылка max.ru на 30 минут. Форма страницы без скрипта (application/x-www-form-urlencoded) получает HTML-страницу, которая открывает ссылку.',
    }),
    async (c) => {
      const token = c.req.param('token');
      const [l, bot] = await Promise.all([current(c, token), readMaxBot(c.env)]);
      if (!l || !bot) return notFound(c);
      if ((await hit(c.env, `maxlink:${l.booking.id}`, TELEGRAM_LINK_THROTTLE.windowMs)) > TELEGRAM_LINK_THROTTLE.max)
        return apiError(c, 429, MSG.maxLinkThrottled);
      const { code } = await newLinkCode(c.env, l.booking.id, MAX_CONSENT_TEXT, TELEGRAM_LINK_TTL_MS, 'max');
      const url = maxStartLink(bot.username, code);
      if (fromForm(c)) return c.html(openMaxPage(url));
      return c.json({ url });
    },
  )
  /** The stay as one all-day event, for the guest's calendar. */
  .get(
    '/:token/stay.ics',
    doc('Проживание как событие календаря', {
      answer: { description: 'Одно событие на весь день', media: 'text/calendar' },
      errors: [404],
    }),
    async (c) => {
      const token = c.req.param('token');
      const l = await current(c, token);
      if (!l) return notFound(c);
      const { booking: b, settings: s } = l;
      const body = stayCalendar(
        {
          id: b.id,
          cabinName: l.cabinName,
          siteName: s.siteName,
          checkIn: b.checkIn,
          checkOut: b.checkOut,
          checkInTime: b.earlyCheckIn ?? s.checkInTime,
          checkOutTime: b.lateCheckOut ?? s.checkOutTime,
          address: s.address,
          pageUrl: guestPageUrl(originOf(c), token),
          status:
            b.status === 'confirmed'
              ? 'CONFIRMED'
              : b.status === 'new' || b.status === 'awaiting_payment'
                ? 'TENTATIVE'
                : 'CANCELLED',
        },
        now(),
      );
      return c.body(body, 200, {
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': `attachment; filename="stay-${b.id}.ics"`,
      });
    },
  );
