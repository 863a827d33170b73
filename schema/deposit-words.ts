// What the guest's page says of a deposit, the same in the server's HTML and the island; no zod
// here, so the page's script stays small. A hold and a deposit paid and refunded after departure
// are told apart before the guest pays.
import type { DepositView } from './deposits.ts';

const rubles = (n: number) => `${n.toLocaleString('ru-RU').replace(/\u00a0/g, ' ')} ₽`;
const shortDate = (iso: string) => iso.split('-').reverse().slice(0, 2).join('.');

/** A hold's words: blocked on the card, never charged. */
function holdText(d: DepositView & { canPay: boolean }): string {
  switch (d.state) {
    case 'asked':
      return d.canPay
        ? `Залог ${rubles(d.amount)} блокируется на вашей карте и не списывается: после выезда блокировка снимется. Нужна банковская карта (СБП не подходит).`
        : `Залог ${rubles(d.amount)} блокируется на карте и не списывается. Внести его можно с ${shortDate(d.askFrom)} и до заезда.`;
    case 'pending':
      return `Залог ${rubles(d.amount)}: оплата начата, но ещё не завершена.`;
    case 'held':
      return `Залог ${rubles(d.amount)} заблокирован на вашей карте и не списан. Блокировка снимется после выезда${d.releaseOn ? `, не позже ${shortDate(d.releaseOn)}` : ''}.`;
    case 'releasing':
    case 'released':
      return `Залог ${rubles(d.amount)} возвращён: блокировка на карте снята.`;
    case 'keeping':
    case 'kept':
      return (d.kept ?? 0) >= d.amount
        ? `Залог ${rubles(d.amount)} удержан${d.reason ? `: ${d.reason}` : ''}.`
        : `Из залога удержано ${rubles(d.kept ?? 0)}${d.reason ? `: ${d.reason}` : ''}. Остальное вернулось на карту.`;
    default:
      return `Залог ${rubles(d.amount)} заблокирован на вашей карте; хозяин решает, вернуть ли его целиком.`;
  }
}

/** A paid deposit's words: charged now, given back by a refund after departure. */
function paidText(d: DepositView & { canPay: boolean }): string {
  const charged = `Залог ${rubles(d.amount)} списывается с карты и возвращается после выезда, в течение 2 дней.`;
  switch (d.state) {
    case 'asked':
      return d.canPay ? charged : `${charged} Внести его можно с ${shortDate(d.askFrom)} и до заезда.`;
    case 'pending':
      return `Залог ${rubles(d.amount)}: оплата начата, но ещё не завершена.`;
    case 'held':
      return `Залог ${rubles(d.amount)} оплачен. Он вернётся на карту после выезда${d.releaseOn ? `, не позже ${shortDate(d.releaseOn)}` : ''}.`;
    case 'releasing':
      return `Залог ${rubles(d.amount)} возвращается на карту.`;
    case 'released':
      return `Залог ${rubles(d.amount)} возвращён на карту.`;
    case 'keeping':
    case 'kept':
      return (d.kept ?? 0) >= d.amount
        ? `Залог ${rubles(d.amount)} удержан${d.reason ? `: ${d.reason}` : ''}.`
        : `Из залога удержано ${rubles(d.kept ?? 0)}${d.reason ? `: ${d.reason}` : ''}. Остальное ${d.state === 'kept' ? 'вернулось' : 'возвращается'} на карту.`;
    default:
      return `Залог ${rubles(d.amount)} оплачен; хозяин оформляет его возврат.`;
  }
}

/** What the guest's page says of the deposit, in the server's HTML. */
export function depositGuestText(d: DepositView & { canPay: boolean }): string {
  return d.mode === 'paid' ? paidText(d) : holdText(d);
}

/** The button: a hold is put down, a paid deposit is paid. */
export const DEPOSIT_PAY_BUTTON = (amount: number, mode: DepositView['mode'] = 'hold') =>
  `${mode === 'paid' ? 'Оплатить' : 'Внести'} залог ${rubles(amount)}`;
