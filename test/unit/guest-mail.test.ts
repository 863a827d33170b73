import { describe, expect, it } from 'vitest';
import { formatDate } from '../../schema/format.ts';
import { guestMail } from '../../schema/guest-mail.ts';
import { DEFAULT_MESSAGES, type MessageSettings } from '../../schema/guest-page.ts';

const stay = {
  name: '  Мадина Гасанова ',
  cabinName: 'Домик у моря',
  checkIn: '2026-12-20',
  checkOut: '2026-12-23',
  guestToken: 'a'.repeat(36),
};

describe('the messages to a guest (schema/guest-mail.ts)', () => {
  it('should fill the confirmation e-mail with the guest’s name, the stay and the link to the guest’s page', () => {
    const reply = guestMail('confirmation', DEFAULT_MESSAGES, stay, 'https://kaspiy.ru/').text;
    expect(reply).toContain('Здравствуйте, Мадина!');
    expect(reply).toContain(`«Домик у моря», заезд ${formatDate('2026-12-20')}, выезд ${formatDate('2026-12-23')}`);
    expect(reply).toContain(`\nhttps://kaspiy.ru/b/${'a'.repeat(36)}\n`);
    expect(reply).not.toMatch(/\{[^}]*\}/);
  });

  it('should fill the owner’s edited template, and link the review request to the review form', () => {
    const messages: MessageSettings = {
      ...DEFAULT_MESSAGES,
      confirmation: { enabled: true, subject: 'Ждём вас', body: '{имя}, до встречи в «{домик}» {заезд}! {ссылка}' },
    };
    expect(guestMail('confirmation', messages, stay, 'http://127.0.0.1:8787').text).toBe(
      `Мадина, до встречи в «Домик у моря» ${formatDate('2026-12-20')}! http://127.0.0.1:8787/b/${'a'.repeat(36)}`,
    );
    const review = guestMail('review', messages, stay, 'https://kaspiy.ru');
    expect(review.subject).toBe('Как вам отдых в «Домик у моря»?');
    expect(review.text).toContain(`https://kaspiy.ru/b/${'a'.repeat(36)}#review`);
    expect(guestMail('reminder', messages, stay, 'https://kaspiy.ru').text).toContain(
      `https://kaspiy.ru/b/${'a'.repeat(36)}\n`,
    );
  });
});
