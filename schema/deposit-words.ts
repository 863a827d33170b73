// What the guest's page says of a deposit, the same in the server's HTML and the island; no zod
// here, so the page's script stays small.
import type { DepositView } from './deposits.ts';

const rubles = (n: number) => `${n.toLocaleString('ru-RU').replace(/\u00a0/g, ' ')} ₽`;
const shortDate = (iso: string) => iso.split('-').reverse().slice(0, 2).join('.');

/** What the guest's page says of the deposit, in the server's HTML. */
export function depositGuestText(d: DepositView & { canPay: boolean }): string {
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
      return `Из залога удержано ${rubles(d.kept ?? 0)}${d.reason ? `: ${d.reason}` : ''}. Остальное вернулось на карту.`;
    default:
      return `Залог ${rubles(d.amount)} заблокирован на вашей карте; хозяин решает, вернуть ли его целиком.`;
  }
}

export const DEPOSIT_PAY_BUTTON = (amount: number) => `Внести залог ${rubles(amount)}`;
