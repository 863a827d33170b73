import { describe, expect, it } from 'vitest';
import { metrikaBase, metrikaSources } from '../../schema/metrika.ts';

// METRIKA_URL as the site's build reads it, and what a page with the counter lets load.
describe('Metrika’s host (METRIKA_URL)', () => {
  it('should be Yandex’s when the variable is empty, unset or not an http(s) address', () => {
    for (const value of [undefined, '', 'mc.yandex.ru', 'ftp://mc.example.ru', 'javascript:alert(1)'])
      expect(metrikaBase(value), String(value)).toBe('https://mc.yandex.ru');
  });

  it('should take another host without its trailing slash, so the tag’s address is /metrika/tag.js below it', () => {
    expect(metrikaBase('http://127.0.0.1:8123/')).toBe('http://127.0.0.1:8123');
    expect(metrikaBase('https://mc.yandex.com')).toBe('https://mc.yandex.com');
  });

  it('should let a page with the counter load Yandex’s tag, its scripts, hits and pixel, and nothing more', () => {
    expect(metrikaSources('https://mc.yandex.ru')).toEqual({
      script: ['https://mc.yandex.ru', 'https://yastatic.net'],
      connect: ['https://mc.yandex.ru'],
      img: ['https://mc.yandex.ru'],
    });
    expect(metrikaSources('http://127.0.0.1:8123')).toEqual({
      script: ['http://127.0.0.1:8123'],
      connect: ['http://127.0.0.1:8123'],
      img: ['http://127.0.0.1:8123'],
    });
  });
});
