import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import type { SmsStatus } from '../../schema/sms.ts';
import { GuestSmsForm, parts } from '../../site/admin/settings/GuestSms.tsx';
import { ConfirmProvider } from '../../site/admin/ui/Confirm.tsx';
import { NoticeProvider } from '../../site/admin/ui/Notice.tsx';

// «Настройки» → «SMS гостям» says in words what SMS.ru reported: the balance, the price of a part
// and of the reminder, the month's spending against the cap, the sender names, and its refusal.
const text = (status: SmsStatus) =>
  renderToStaticMarkup(
    createElement(
      NoticeProvider,
      null,
      createElement(ConfirmProvider, null, createElement(GuestSmsForm, { status, onStatus: () => {} })),
    ),
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('GuestSms', () => {
  it('should say it is off, and offer to turn it on with a key and a cap', () => {
    const off = text({ connected: false, last4: null });
    expect(off).toContain('Выключено');
    expect(off).toContain('Ключ API (api_id)');
    expect(off).toContain('Лимит в месяц, ₽');
    expect(off).toContain('Включить SMS');
    expect(off).not.toContain('Отключить');
  });

  it('should show what SMS.ru reported and its refusal, with the key’s last 4 characters only', () => {
    const on = text({
      connected: true,
      provider: 'smsru',
      last4: 'AB12',
      sender: 'Kaspiy',
      monthlyCapRub: 300,
      balanceRub: 98.5,
      senders: ['Kaspiy', 'SMS.ru'],
      price: { perPartRub: 1.5, reminderParts: 3, reminderRub: 4.5 },
      month: { spentRub: 9, reservedRub: 4.5 },
      checkedAt: 1,
      error: MSG.smsNoMoney,
    });
    expect(on).toContain('Включено SMS.ru, ключ …AB12, на счёте 98,50 ₽');
    expect(on).toContain('Цена: 1,50 ₽ за часть SMS (до 70 знаков кириллицей');
    expect(on).toContain('напоминание — 3 части, около 4,50 ₽');
    expect(on).toContain('В этом месяце потрачено 9 ₽ из 300 ₽ (ещё 4,50 ₽ — в отправке)');
    expect(on).toContain('Отправитель: «Kaspiy» (одобрены: Kaspiy, SMS.ru)');
    expect(on).toContain(MSG.smsNoMoney);
    expect(on).toContain('Новый ключ API');
    expect(on).toContain('Сохранить и проверить');
  });

  it('should count parts in Russian', () => {
    expect([1, 2, 3, 5, 11, 21, 22].map(parts)).toEqual([
      '1 часть',
      '2 части',
      '3 части',
      '5 частей',
      '11 частей',
      '21 часть',
      '22 части',
    ]);
  });
});
