import { describe, expect, it } from 'vitest';
import { extractMapSrc } from '../../schema/map.ts';

const YANDEX = 'https://yandex.ru/map-widget/v1/?um=constructor%3Aa1b2c3&source=constructor';
const GOOGLE = 'https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2931.5!2d47.6!3d42.8';
const frame = (src: string) => `<iframe src="${src}" width="100%" height="400" frameborder="0"></iframe>`;

describe('extractMapSrc', () => {
  it('should accept a Yandex map-widget frame and decode &amp;', () => {
    const code = `<iframe src="https://yandex.ru/map-widget/v1/?um=constructor%3Aa1b2c3&amp;source=constructor" width="560" height="400" frameborder="0"></iframe>`;
    expect(extractMapSrc(code)).toBe(YANDEX);
  });

  it('should accept a Google maps/embed frame', () => {
    const code = `<iframe src="${GOOGLE}" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>`;
    expect(extractMapSrc(code)).toBe(GOOGLE);
  });

  it('should accept other Yandex and Google map addresses', () => {
    expect(extractMapSrc(frame('https://yandex.com/map-widget/v1/-/CDaBcD'))).toBe(
      'https://yandex.com/map-widget/v1/-/CDaBcD',
    );
    expect(extractMapSrc(frame('https://api-maps.yandex.ru/frame/v1/-/CBuQy0F'))).toBe(
      'https://api-maps.yandex.ru/frame/v1/-/CBuQy0F',
    );
    expect(extractMapSrc(frame('https://maps.google.com/maps?q=Kaspiysk&output=embed'))).toBe(
      'https://maps.google.com/maps?q=Kaspiysk&output=embed',
    );
    expect(extractMapSrc(frame('https://www.google.ru/maps/embed?pb=1'))).toBe('https://www.google.ru/maps/embed?pb=1');
  });

  it('should handle single-quoted, unquoted and spaced src attributes', () => {
    expect(extractMapSrc(`<iframe width='600' src='${GOOGLE}'></iframe>`)).toBe(GOOGLE);
    expect(extractMapSrc(`<iframe src=${GOOGLE} width=600></iframe>`)).toBe(GOOGLE);
    expect(extractMapSrc(`<iframe src = "${GOOGLE}"></iframe>`)).toBe(GOOGLE);
    expect(extractMapSrc(`<IFRAME SRC="${GOOGLE}"></IFRAME>`)).toBe(GOOGLE);
  });

  it('should find the frame inside surrounding markup', () => {
    const code = `<div class="map">\n  <a href="https://evil.com">x</a>\n  ${frame(YANDEX)}\n</div>`;
    expect(extractMapSrc(code)).toBe(YANDEX);
  });

  it('should take a protocol-relative address as https', () => {
    expect(extractMapSrc(frame('//www.google.com/maps/embed?pb=1'))).toBe('https://www.google.com/maps/embed?pb=1');
  });

  it('should reject plain http', () => {
    expect(extractMapSrc(frame('http://yandex.ru/map-widget/v1/?um=1'))).toBeNull();
    expect(extractMapSrc(frame('http://www.google.com/maps/embed?pb=1'))).toBeNull();
  });

  it('should reject javascript: and data: addresses', () => {
    expect(extractMapSrc(frame('javascript:alert(1)'))).toBeNull();
    expect(extractMapSrc(frame('JaVaScRiPt:alert(1)//yandex.ru/map-widget/'))).toBeNull();
    expect(extractMapSrc(frame('data:text/html,<script>alert(1)</script>'))).toBeNull();
  });

  it('should reject other hosts', () => {
    expect(extractMapSrc(frame('https://example.com/map-widget/v1/'))).toBeNull();
    expect(extractMapSrc(frame('https://www.openstreetmap.org/export/embed.html'))).toBeNull();
  });

  it('should reject lookalike hosts', () => {
    expect(extractMapSrc(frame('https://yandex.ru.evil.com/map-widget/v1/'))).toBeNull();
    expect(extractMapSrc(frame('https://evilgoogle.com/maps/embed?pb=1'))).toBeNull();
    expect(extractMapSrc(frame('https://google.com.evil.com/maps/embed?pb=1'))).toBeNull();
    expect(extractMapSrc(frame('https://evilyandex.ru/map-widget/v1/'))).toBeNull();
    expect(extractMapSrc(frame('https://www.google.com@evil.com/maps/embed'))).toBeNull();
  });

  it('should reject Yandex and Google pages that are not maps', () => {
    expect(extractMapSrc(frame('https://www.google.com/search?q=maps'))).toBeNull();
    expect(extractMapSrc(frame('https://www.google.com/maps-evil'))).toBeNull();
    expect(extractMapSrc(frame('https://yandex.ru/search/?text=map'))).toBeNull();
    expect(extractMapSrc(frame('https://disk.yandex.ru/i/mapfile'))).toBeNull();
  });

  it('should take the real src, not data-src or text inside another attribute', () => {
    expect(extractMapSrc(`<iframe data-src="${GOOGLE}" src="https://evil.com/"></iframe>`)).toBeNull();
    expect(extractMapSrc(`<iframe title="a src=${GOOGLE}" src="https://evil.com/"></iframe>`)).toBeNull();
    expect(extractMapSrc(`<iframe title="a > b" src="${GOOGLE}"></iframe>`)).toBe(GOOGLE);
  });

  it('should give null without an iframe', () => {
    expect(extractMapSrc(YANDEX)).toBeNull();
    expect(extractMapSrc(`<script src="${GOOGLE}"></script>`)).toBeNull();
    expect(extractMapSrc(`<iframesrc="${GOOGLE}"></iframe>`)).toBeNull();
    expect(extractMapSrc('<iframe width="600"></iframe>')).toBeNull();
    expect(extractMapSrc('<iframe src=""></iframe>')).toBeNull();
  });

  it('should give null for empty input', () => {
    expect(extractMapSrc('')).toBeNull();
    expect(extractMapSrc('   ')).toBeNull();
    expect(extractMapSrc(null)).toBeNull();
    expect(extractMapSrc(undefined)).toBeNull();
  });
});
