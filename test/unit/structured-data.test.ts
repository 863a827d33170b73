import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { mapPoint } from '../../schema/map.ts';
import {
  breadcrumbLd,
  ldContext,
  lodgingBusinessLd,
  postalAddress,
  reviewsLd,
  vacationRentalLd,
} from '../../site/lib/seo.ts';
import { siteInfo } from '../../site/lib/site.ts';
import { schemaOrgProblems } from '../schema-org.ts';

// The site's structured data as Yandex and Google read it: a split address and the map's point,
// and every document checked against schema.org's vocabulary (test/schema-org.ts), not by eye.

const YANDEX_MAP =
  '<iframe src="https://yandex.ru/map-widget/v1/?ll=47.6386%2C42.8816&z=13" width="560" height="400"></iframe>';
const settings = { ...DEFAULT_SETTINGS, mapEmbedCode: YANDEX_MAP };
const ctx = ldContext('https://kaspiy.example', siteInfo(settings), settings);
const cabin = {
  id: 7,
  name: 'Домик «Дюна»',
  description: 'У моря.',
  pricePerNight: 5600,
  location: 'Каспийск, ул. Морская, 3',
  bedrooms: 2,
  bathrooms: 1,
  maxGuests: 4,
  amenities: ['Wi-Fi', 'Терраса'],
};

describe('structured data for search engines', () => {
  it('should split an address as owners write it into region, locality, street and postal code', () => {
    expect(postalAddress('Республика Дагестан, Каспийск, ул. Приморская, 12')).toEqual({
      '@type': 'PostalAddress',
      addressRegion: 'Республика Дагестан',
      addressLocality: 'Каспийск',
      streetAddress: 'ул. Приморская, 12',
      addressCountry: 'RU',
    });
    expect(postalAddress('368300, Россия, Респ. Дагестан, г. Каспийск, улица Ленина, д. 5')).toEqual({
      '@type': 'PostalAddress',
      postalCode: '368300',
      addressRegion: 'Респ. Дагестан',
      addressLocality: 'Каспийск',
      streetAddress: 'улица Ленина, д. 5',
      addressCountry: 'RU',
    });
    // Nothing the rules cannot place is lost: it stays in the street.
    expect(postalAddress('Избербаш')).toMatchObject({ addressLocality: 'Избербаш' });
    expect(postalAddress('ул. Морская, 3')).toMatchObject({ streetAddress: 'ул. Морская, 3' });
  });

  it("should read the map's point from a Yandex or Google frame, and none from a map without one", () => {
    expect(mapPoint('https://yandex.ru/map-widget/v1/?ll=47.6386%2C42.8816&z=13')).toEqual({
      latitude: 42.8816,
      longitude: 47.6386,
    });
    expect(mapPoint('https://yandex.ru/map-widget/v1/?ll=1%2C1&pt=47.5%2C42.9')).toEqual({
      latitude: 42.9,
      longitude: 47.5,
    });
    expect(
      mapPoint('https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2915.5!2d47.6386!3d42.8816!2m3!1f0!2f0!3f0'),
    ).toEqual({ latitude: 42.8816, longitude: 47.6386 });
    expect(mapPoint('https://yandex.ru/map-widget/v1/?um=constructor%3Aabc')).toBeNull();
    expect(mapPoint('https://yandex.ru/map-widget/v1/?ll=200%2C95')).toBeNull();
    expect(mapPoint(null)).toBeNull();
  });

  it('should give the business and a cabin in its town the map point and a split address', () => {
    const business = lodgingBusinessLd(ctx);
    expect(business.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 42.8816, longitude: 47.6386 });
    expect(business.address).toMatchObject({ addressLocality: 'Каспийск', addressRegion: 'Республика Дагестан' });
    const rental = vacationRentalLd(ctx, cabin, [], { min: 4900, max: 7000 });
    expect(rental.geo).toEqual(business.geo);
    expect(rental.address).toMatchObject({
      addressLocality: 'Каспийск',
      streetAddress: 'ул. Морская, 3',
      addressRegion: 'Республика Дагестан',
    });
    expect(rental.makesOffer).toMatchObject({ '@type': 'Offer', price: 4900, priceCurrency: 'RUB' });
    // A cabin in another town is not at the business's point.
    expect(vacationRentalLd(ctx, { ...cabin, location: 'Избербаш' }, []).geo).toBeUndefined();
  });

  it('should rate the business by every published review and count the guests who stayed apart', () => {
    const review = (rating: number, verifiedStay: boolean) => ({
      name: 'Гость',
      rating,
      comment: 'Хорошо',
      created_at: '2026-07-01T10:00:00Z',
      verifiedStay,
    });
    const rated = lodgingBusinessLd(ctx, undefined, [review(5, true), review(4, true), review(2, false)]);
    expect(rated.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 3.7,
      reviewCount: 3,
      bestRating: 5,
      worstRating: 1,
    });
    expect(rated.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Отзывы гостей, которые проживали', value: 2 },
      {
        '@type': 'PropertyValue',
        name: 'Средняя оценка гостей, которые проживали',
        value: 4.5,
        minValue: 1,
        maxValue: 5,
      },
    ]);
    // No verified review: no count of them; no review at all: no rating.
    expect(lodgingBusinessLd(ctx, undefined, [review(4, false)]).additionalProperty).toBeUndefined();
    expect(lodgingBusinessLd(ctx).aggregateRating).toBeUndefined();
    expect(schemaOrgProblems([rated])).toEqual([]);
  });

  it("should pass schema.org's vocabulary: the business, a cabin, the reviews and the way to a page", () => {
    const docs = [
      lodgingBusinessLd(ctx, 'https://kaspiy.example/hero.webp'),
      lodgingBusinessLd({ ...ctx, site: { ...ctx.site, registry: { number: 'C000-1', url: 'https://example.ru' } } }),
      vacationRentalLd(ctx, cabin, ['https://kaspiy.example/a.webp'], { min: 4900, max: 7000 }),
      reviewsLd(
        'https://kaspiy.example',
        'Каспий',
        [{ name: 'Анна', rating: 5, comment: 'Чудесно', created_at: '2026-07-01T10:00:00Z', verifiedStay: true }],
        5,
      ),
      breadcrumbLd('https://kaspiy.example', [
        { name: 'Главная', path: '/' },
        { name: 'Домики', path: '/cabins' },
      ]),
    ];
    expect(schemaOrgProblems(docs)).toEqual([]);
  });

  it('should find a property schema.org does not have, a value of the wrong kind and an unknown type', () => {
    const rental = vacationRentalLd(ctx, cabin, []);
    const problems = schemaOrgProblems([
      { ...rental, checkinTme: '14:00' },
      { ...lodgingBusinessLd(ctx), geo: { '@type': 'GeoCoordinates', latitude: { north: 1 } } },
      { '@context': 'https://schema.org', '@type': 'HolidayCabin', name: 'x' },
    ]);
    expect(problems.join('\n')).toMatch(/checkinTme/);
    expect(problems.find((p) => p.startsWith('document 1'))).toBeDefined();
    expect(problems.join('\n')).toMatch(/HolidayCabin/);
  });
});
