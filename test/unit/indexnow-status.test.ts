import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { INDEXNOW_OFF_NO_DOMAIN, type IndexNowStatus } from '../../schema/indexnow.ts';
import { addresses, IndexNowDetails } from '../../site/admin/settings/IndexNowStatus.tsx';

// «Продвижение»'s IndexNow panel says every state in words (a badge's colour alone says nothing to
// a screen reader or in the sun), and names the key file as a link the owner can open.
const text = (status: IndexNowStatus) =>
  renderToStaticMarkup(createElement(IndexNowDetails, { status }))
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe('IndexNowStatus', () => {
  it('should say why it is off, with no key link', () => {
    const html = renderToStaticMarkup(
      createElement(IndexNowDetails, { status: { on: false, why: INDEXNOW_OFF_NO_DOMAIN, key: '', pending: 0 } }),
    );
    expect(html).toContain('Выключено');
    expect(html).toContain(INDEXNOW_OFF_NO_DOMAIN);
    expect(html).not.toContain('<a ');
  });

  it('should show the key file, the last send and what waits, in words', () => {
    const keyUrl = 'https://kaspiy.ru/0123456789abcdef0123456789abcdef.txt';
    const html = renderToStaticMarkup(
      createElement(IndexNowDetails, {
        status: {
          on: true,
          key: '0123456789abcdef0123456789abcdef',
          keyUrl,
          lastSentAt: '2026-11-29T12:00:00.000Z',
          lastUrls: 3,
          pending: 21,
        },
      }),
    );
    expect(html).toContain('Включено');
    expect(html).toContain(`<a href="${keyUrl}"`);
    expect(
      text({ on: true, key: 'k', keyUrl, lastSentAt: '2026-11-29T12:00:00.000Z', lastUrls: 3, pending: 21 }),
    ).toMatch(/Последняя отправка 29 ноября.*, 3 адреса Ждут отправки 21 адрес /);
    expect(text({ on: true, key: 'k', keyUrl, pending: 0 })).toContain('Последняя отправка ещё не было');
  });

  it('should give the refusal with what happens next: tried again, or with the next publish', () => {
    const error = '403: ключ не подтверждён — сайт не отдаёт файл ключа по адресу https://kaspiy.ru/k.txt.';
    const givenUp = text({ on: true, key: 'k', keyUrl: 'https://kaspiy.ru/k.txt', pending: 0, error });
    expect(givenUp).toContain(`Яндекс не принял последний список. ${error}`);
    expect(givenUp).toContain('следующая публикация отправится сама');
    const waiting = text({ on: true, key: 'k', keyUrl: 'https://kaspiy.ru/k.txt', pending: 5, error: '429: …' });
    expect(waiting).toContain('попробует отправить список ещё раз');
  });

  it('should count addresses in Russian', () => {
    expect([1, 2, 5, 11, 12, 21, 22, 25, 101, 111].map(addresses)).toEqual([
      '1 адрес',
      '2 адреса',
      '5 адресов',
      '11 адресов',
      '12 адресов',
      '21 адрес',
      '22 адреса',
      '25 адресов',
      '101 адрес',
      '111 адресов',
    ]);
  });
});
