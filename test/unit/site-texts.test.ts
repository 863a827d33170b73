import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, CONTACT_PAGE_DEFAULTS } from '../../schema/defaults.ts';
import { initial } from '../../schema/format.ts';
import { pageRange } from '../../site/lib/pager.ts';
import { contactPage, siteInfo } from '../../site/lib/site.ts';
import { telHref } from '../../site/lib/tel.ts';
import {
  availableText,
  counterText,
  metaDescription,
  pageOfText,
  rangeText,
  upToGuests,
} from '../../site/lib/texts.ts';

const NBSP = '\u00a0';
const plain = (s: string) => s.replaceAll(NBSP, ' ');

describe('catalogue and pager texts', () => {
  it('should say «Показано a-b из n объектов» with the genitive after «из»', () => {
    expect(plain(rangeText(pageRange(1, 12, 15)))).toBe('Показано 1-12 из 15 объектов');
    expect(plain(rangeText(pageRange(2, 12, 15)))).toBe('Показано 13-15 из 15 объектов');
    expect(plain(rangeText(pageRange(1, 12, 1)))).toBe('Показано 1-1 из 1 объекта');
    expect(plain(rangeText(pageRange(1, 12, 21)))).toBe('Показано 1-12 из 21 объекта');
    expect(plain(rangeText(pageRange(1, 12, 3)))).toBe('Показано 1-3 из 3 объектов');
    expect(plain(rangeText(pageRange(1, 12, 0)))).toBe('Показано 0-0 из 0 объектов');
  });

  it('should count the available objects with the verb agreeing', () => {
    expect(plain(availableText(1))).toBe('Доступен 1 объект');
    expect(plain(availableText(3))).toBe('Доступны 3 объекта');
    expect(plain(availableText(15))).toBe('Доступно 15 объектов');
    expect(plain(availableText(21))).toBe('Доступен 21 объект');
    expect(plain(availableText(0))).toBe('Доступно 0 объектов');
  });

  it('should say which page it is and which photo the viewer shows', () => {
    expect(pageOfText(2, 5)).toBe('Страница 2 из 5');
    expect(counterText(0, 7)).toBe('1 / 7');
    expect(counterText(6, 7)).toBe('7 / 7');
  });

  it('should put the guests after «до» in the genitive', () => {
    expect(plain(upToGuests(1))).toBe('до 1 гостя');
    expect(plain(upToGuests(2))).toBe('до 2 гостей');
    expect(plain(upToGuests(10))).toBe('до 10 гостей');
    expect(plain(upToGuests(21))).toBe('до 21 гостя');
  });
});

describe('meta descriptions', () => {
  it('should keep short text whole and flatten its spaces', () => {
    expect(metaDescription('Домик  у\nморя.')).toBe('Домик у моря.');
  });

  it('should cut long text at a word with an ellipsis, within the limit', () => {
    const text = 'Просторная вилла с видом на море, '.repeat(10);
    const cut = metaDescription(text, 160);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\s,]…$/);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
  });
});

describe('contact details', () => {
  it('should make tel: links with the country code', () => {
    expect(telHref('+7 (928) 555-12-34')).toBe('tel:+79285551234');
    expect(telHref('8 (928) 555-12-34')).toBe('tel:+79285551234');
    expect(telHref('7 928 555 12 34')).toBe('tel:+79285551234');
    expect(telHref('112')).toBe('tel:112');
    expect(telHref('')).toBe('');
  });

  it('should fall back from blank footer fields to the main contacts, and from blank ones to the defaults', () => {
    const info = siteInfo({
      siteName: '  ',
      phone: '8 900 123-45-67',
      email: 'host@example.ru',
      address: 'Дербент',
      footerDescription: '',
      footerPhone: '',
      footerEmail: ' ',
      footerAddress: '',
    });
    expect(info.name).toBe(DEFAULT_SETTINGS.siteName);
    expect(info.whatsapp).toBe('79001234567');
    expect(info.footer).toEqual({
      description: DEFAULT_SETTINGS.footerDescription,
      phone: '8 900 123-45-67',
      phoneHref: 'tel:+79001234567',
      email: 'host@example.ru',
      address: 'Дербент',
    });
    expect(info.ownerName).toBe(DEFAULT_SETTINGS.ownerName);
  });

  it('should build the contact page from its defaults with phone, e-mail and address from the settings', () => {
    const page = contactPage({ ...DEFAULT_SETTINGS, phone: '+7 999 000-00-00', email: 'a@b.ru', address: 'Каспийск' });
    expect(page.title).toBe(CONTACT_PAGE_DEFAULTS.title);
    expect(page.officeHours).toEqual(CONTACT_PAGE_DEFAULTS.officeHours);
    expect(page.phone).toBe('+7 999 000-00-00');
    expect(page.whatsapp).toBe('79990000000');
    expect(page.email).toBe('a@b.ru');
    expect(page.address).toBe('Каспийск');
  });

  it('should take the first letter of a name for the avatar', () => {
    expect(initial('анна')).toBe('А');
    expect(initial('  ёжик')).toBe('Ё');
    expect(initial('')).toBe('?');
    expect(initial('😀 Смайл')).toBe('😀');
  });
});
