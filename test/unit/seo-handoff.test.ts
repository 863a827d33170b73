import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { wrapIndex } from '../../site/lib/gallery.ts';
import { findReview, openParam, reviewHref } from '../../site/lib/handoff.ts';
import { SAMPLE_REVIEWS } from '../../site/lib/reviews-pick.ts';
import { ldJson, lodgingBusinessLd, postalAddress, vacationRentalLd } from '../../site/lib/seo.ts';
import { siteInfo } from '../../site/lib/site.ts';

const ctx = {
  origin: 'https://kaspiy.example',
  site: siteInfo(DEFAULT_SETTINGS),
  checkInTime: '14:00',
  checkOutTime: '12:00',
};
const cabin = {
  id: 7,
  name: 'Домик «Дюна»',
  description: 'У моря.',
  pricePerNight: 5600,
  location: 'Манас',
  bedrooms: 2,
  bathrooms: 1,
  maxGuests: 4,
  amenities: ['Wi-Fi', 'Терраса'],
};

describe('structured data', () => {
  it('should describe a cabin as a vacation rental with occupancy, rooms, amenities, times and photos', () => {
    const ld = vacationRentalLd(ctx, cabin, ['https://kaspiy.example/_astro/a.webp']);
    expect(ld['@type']).toBe('VacationRental');
    expect(ld.url).toBe('https://kaspiy.example/cabin/7');
    expect(ld.image).toEqual(['https://kaspiy.example/_astro/a.webp']);
    expect(ld.checkinTime).toBe('14:00');
    expect(ld.checkoutTime).toBe('12:00');
    expect(ld.address.addressLocality).toBe('Манас');
    expect(ld.containsPlace).toMatchObject({
      '@type': 'Accommodation',
      occupancy: { maxValue: 4 },
      numberOfBedrooms: 2,
      numberOfBathroomsTotal: 1,
      petsAllowed: true,
      smokingAllowed: false,
    });
    expect(ld.containsPlace.amenityFeature.map((a) => a.name)).toEqual(['Wi-Fi', 'Терраса']);
  });

  it('should give the price range of the seasons ahead, or the one price per night', () => {
    expect(vacationRentalLd(ctx, cabin, []).priceRange).toBe(`${cabin.pricePerNight} RUB за ночь`);
    expect(vacationRentalLd(ctx, cabin, [], { min: cabin.pricePerNight, max: cabin.pricePerNight }).priceRange).toBe(
      `${cabin.pricePerNight} RUB за ночь`,
    );
    expect(vacationRentalLd(ctx, cabin, [], { min: 4500, max: 9000 }).priceRange).toBe('4500–9000 RUB за ночь');
  });

  it('should use the site address for a cabin without a location and leave out missing photos', () => {
    const ld = vacationRentalLd(ctx, { ...cabin, location: ' ' }, []);
    // The business's address, split as search engines read it (test/unit/structured-data.test.ts).
    expect(ld.address).toEqual(postalAddress(DEFAULT_SETTINGS.address));
    expect(Object.values(ld.address).join(' ')).toContain('Приморская, 12');
    expect('image' in ld).toBe(false);
  });

  it('should describe the business with its contacts', () => {
    const ld = lodgingBusinessLd(ctx, 'https://kaspiy.example/_astro/hero.jpg');
    expect(ld).toMatchObject({
      '@type': 'LodgingBusiness',
      name: DEFAULT_SETTINGS.siteName,
      telephone: DEFAULT_SETTINGS.phone,
      url: 'https://kaspiy.example/',
    });
  });

  it('should never let text close the script tag', () => {
    const json = ldJson({ name: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('<');
    expect(JSON.parse(json).name).toBe('</script><script>alert(1)</script>');
  });
});

describe('the home page hand-off to /reviews', () => {
  it('should put the review id in the address', () => {
    expect(reviewHref(12)).toBe('/reviews?open=12');
    expect(openParam('?open=12')).toBe(12);
    expect(openParam('?open=-2')).toBe(-2);
    expect(openParam('?open=abc')).toBeNull();
    expect(openParam('?x=1')).toBeNull();
    expect(openParam('')).toBeNull();
  });

  it('should find the review among the page’s reviews or the built-in samples', () => {
    const reviews = [{ id: 5, name: 'Оля' }];
    expect(findReview(reviews, 5)).toEqual({ id: 5, name: 'Оля' });
    expect(findReview(reviews, SAMPLE_REVIEWS[0]!.id)).toBe(SAMPLE_REVIEWS[0]);
    expect(findReview(reviews, 99)).toBeNull();
    expect(findReview(reviews, null)).toBeNull();
  });
});

describe('the photo viewer', () => {
  it('should wrap at both ends', () => {
    expect(wrapIndex(0, -1, 5)).toBe(4);
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(2, 1, 5)).toBe(3);
    expect(wrapIndex(0, -6, 5)).toBe(4);
    expect(wrapIndex(3, 0, 0)).toBe(0);
  });
});
