import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { DEPOSIT_MSG, depositKeepSchema, depositView, type DepositView } from '../../schema/deposits.ts';
import { MSG } from '../../schema/messages.ts';
import type { Deposit } from '../../schema/tables.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { carryOut, currentOf, decide, depositRuleOf, depositViewOf, keepRefusal } from '../payments/deposits.ts';
import { getBooking } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { depositsOf, isStanding, type DepositDecision } from '../queries/deposits.ts';
import { getSettings } from '../queries/settings.ts';
import { idParam } from './params.ts';

const doc = docs('Залог');

const depositAnswer = z.object({ deposit: depositView });

type C = Context<AppEnv>;

/**
 * The owner's decision on a deposit held on the guest's card or paid: written first, by a
 * conditional write on an undecided deposit (the other button, a second tap and the schedule's
 * return lose), then carried out at ЮKassa (a cancel or capture of a hold, a refund of a paid
 * one); a refusal or silence is kept for the owner and asked again by the schedule.
 */
async function decideFor(c: C, id: number, make: (d: Deposit) => DepositDecision | string) {
  const booking = await getBooking(c.env, id);
  if (!booking) return apiError(c, 404, MSG.bookingNotFound);
  const held = currentOf(await depositsOf(c.env, id));
  if (!held || !isStanding(held)) return apiError(c, 409, DEPOSIT_MSG.nothingHeld);
  if (held.decision) return apiError(c, 409, DEPOSIT_MSG.decided);
  const decision = make(held);
  if (typeof decision === 'string') return apiError(c, 400, decision);
  const claimed = await decide(c.env, held.id, decision);
  if (!claimed) return apiError(c, 409, DEPOSIT_MSG.decided);
  const [cabin, settings] = await Promise.all([getCabin(c.env, booking.cabinId), getSettings(c.env)]);
  const done = await carryOut(c.env, claimed, booking, cabin?.name ?? '', settings.vatCode);
  const view = depositViewOf(depositRuleOf(booking, cabin?.deposit ?? 0, settings), done) as DepositView;
  return c.json({ deposit: view });
}

/** «Вернуть залог» and «Удержать …» (docs/api.md «Deposits»). */
export const depositRoutes = new Hono<AppEnv>()
  .post(
    '/bookings/:id/deposit/release',
    doc('Вернуть залог', {
      admin: true,
      answer: depositAnswer,
      errors: [404, 409],
      description:
        'Снимает блокировку залога на карте гостя (отмена платежа в ЮKassa); оплаченный залог (`mode: paid`) ' +
        'возвращает целиком возвратом в ЮKassa с чеком. Решение записывается одной условной записью на ' +
        'нерешённом залоге: повтор, вторая кнопка и возврат по расписанию ничего не меняют (409). Если ЮKassa ' +
        'отказала или не ответила, решение сохранено, `deposit.error` говорит почему, и расписание повторит запрос.',
    }),
    requireAdmin,
    validate('param', idParam),
    (c) => decideFor(c, c.req.valid('param').id, () => ({ decision: 'release', by: 'owner' })),
  )
  .post(
    '/bookings/:id/deposit/keep',
    doc('Удержать часть залога', {
      admin: true,
      answer: depositAnswer,
      errors: [400, 404, 409],
      description:
        '`amount` — рубли, не больше залога (иначе 400), `reason` — причина, которую увидит гость. Блокировку ' +
        'списывает в этой части (capture в ЮKassa с чеком по 54-ФЗ), остальное возвращается на карту; у ' +
        'оплаченного залога (`mode: paid`) возвращает остальное возвратом в ЮKassa с чеком, а удержание всего ' +
        'залога ничего не возвращает, причина записывается. Одно решение на залог.',
    }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', depositKeepSchema),
    (c) => {
      const { amount, reason } = c.req.valid('json');
      return decideFor(c, c.req.valid('param').id, (d) => {
        const refused = keepRefusal(d, amount);
        return refused ?? { decision: 'keep', by: 'owner', keptAmount: amount * 100, reason };
      });
    },
  );
