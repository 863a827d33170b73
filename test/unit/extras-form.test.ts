import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { pricingBodySchema } from '../../schema/pricing-input.ts';
import { stayHoursText, type Extra } from '../../schema/pricing.ts';
import { extraPayload, extraValues, ExtrasForm } from '../../site/admin/pricing/Extras.tsx';
import { ConfirmProvider } from '../../site/admin/ui/Confirm.tsx';
import { NoticeProvider } from '../../site/admin/ui/Notice.tsx';

// «Цены и скидки» → «Дополнительные услуги»: the owner picks an extra's kind and, for an early
// check-in or a late check-out, the hour it gives; the panel sends what the server takes, and the
// owner's booking card says the hours a booking was made with.

const saved: Extra[] = [
  { id: 1, name: 'Баня', price: 2000, per: 'stay', mandatory: true, cabinIds: null, kind: 'ordinary', time: null },
  {
    id: 2,
    name: 'Ранний заезд с 10:00',
    price: 1500,
    per: 'stay',
    mandatory: false,
    cabinIds: [3],
    kind: 'earlyCheckIn',
    time: '10:00',
  },
  {
    id: 3,
    name: 'Поздний выезд',
    price: 1000,
    per: 'stay',
    mandatory: false,
    cabinIds: null,
    kind: 'lateCheckOut',
    time: '18:00',
  },
];

const markup = () =>
  renderToStaticMarkup(
    createElement(
      NoticeProvider,
      null,
      createElement(
        ConfirmProvider,
        null,
        createElement(ExtrasForm, { saved: extraValues(saved), cabins: [], save: async () => {} }),
      ),
    ),
  );

describe('the extras editor', () => {
  it('should show each extra’s kind, the hour of an early check-in and a late check-out, and no «Обязательная» for them', () => {
    const html = markup();
    expect(html).toMatch(/<select id="extra-1-kind"[^>]*>.*?<option value="earlyCheckIn" selected="">Ранний заезд</s);
    expect(html).toMatch(/<label[^>]*for="extra-1-time"[^>]*>Заезд с<\/label>/);
    expect(html).toMatch(/<input id="extra-1-time" type="time"[^>]*value="10:00"/);
    expect(html).toMatch(/<label[^>]*for="extra-2-time"[^>]*>Выезд до<\/label>/);
    expect(html).not.toContain('id="extra-0-time"');
    // One «Обязательная» box: the баня's.
    expect(html.match(/Обязательная: входит в каждое бронирование/g)).toHaveLength(1);
    expect(html).toContain('Предлагается, только когда ночь перед заездом свободна.');
    expect(html).toContain('Предлагается, только когда ночь в день выезда свободна.');
    expect(html.replace(/[\u00a0\u202f]/g, ' ')).toContain(
      'Ранний заезд с 10:00: 1 500 ₽ за проживание (заезд с 10:00)',
    );
  });

  it('should send what the server takes: the kind and hour as set, no hour for an ordinary extra, never a mandatory early check-in', () => {
    const values = extraValues(saved);
    // The owner turns the баня into a late check-out and back, and ticks «Обязательная» on the early one by an old draft.
    values.rows[0] = { ...values.rows[0]!, time: '20:00' };
    values.rows[1] = { ...values.rows[1]!, mandatory: true };
    const payload = extraPayload(values);
    expect(payload.map((e) => [e.kind, e.time, e.mandatory])).toEqual([
      ['ordinary', null, true],
      ['earlyCheckIn', '10:00', false],
      ['lateCheckOut', '18:00', false],
    ]);
    expect(pricingBodySchema.safeParse({ discounts: [], extras: payload }).success).toBe(true);
    // An hour left empty is the server's refusal, in the owner's words.
    values.rows[2] = { ...values.rows[2]!, time: '' };
    const refused = pricingBodySchema.safeParse({ discounts: [], extras: extraPayload(values) });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.message)).toEqual([MSG.extraTimeInvalid]);
  });
});

describe('the owner’s booking card', () => {
  it('should say the early and late hours a booking was made with', () => {
    expect(stayHoursText({ earlyCheckIn: '10:00', lateCheckOut: '18:00' })).toBe(
      'Ранний заезд с 10:00, поздний выезд до 18:00',
    );
    expect(stayHoursText({ earlyCheckIn: null, lateCheckOut: '18:00' })).toBe('Поздний выезд до 18:00');
    expect(stayHoursText({ earlyCheckIn: '09:30' })).toBe('Ранний заезд с 09:30');
    expect(stayHoursText({})).toBe('');
  });
});
