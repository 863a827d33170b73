// Structured data (schema.org JSON-LD) for search engines: the business on every page,
// and each cabin as a vacation rental.
import { RATING_MAX } from '../../schema/constants.ts';
import { extractMapSrc, mapPoint, type MapPoint } from '../../schema/map.ts';
import type { SiteInfo } from './site.ts';

export interface CabinLdInput {
  id: number;
  name: string;
  description: string;
  pricePerNight: number;
  location: string;
  bedrooms: number;
  bathrooms: number;
  maxGuests: number;
  amenities: string[];
}

export interface LdContext {
  /** The site's origin, e.g. https://kaspiy-dom.ru */
  origin: string;
  site: SiteInfo;
  checkInTime: string;
  checkOutTime: string;
  /** Where the owner's map points (schema/map.ts mapPoint), when it says. */
  geo?: MapPoint | null;
}

const abs = (origin: string, path: string) => new URL(path, origin).href;

/** The context every page's structured data is made in: the stay times and the map's point from the settings. */
export const ldContext = (
  origin: string,
  site: SiteInfo,
  settings: { checkInTime: string; checkOutTime: string; mapEmbedCode?: string | null },
): LdContext => ({
  origin,
  site,
  checkInTime: settings.checkInTime,
  checkOutTime: settings.checkOutTime,
  geo: mapPoint(extractMapSrc(settings.mapEmbedCode)),
});

const REGION = /(?:республика|область|обл\.|край|округ|ао)(?:\s|$)|^респ\./i;
const LOCALITY = /^(?:г\.|город|пгт|пос\.|посёлок|поселок|с\.|село|дер\.|деревня|ст-ца|станица)\s*/i;
const STREET =
  /^(?:ул\.|улица|пр\.|пр-т|проспект|пер\.|переулок|наб\.|набережная|ш\.|шоссе|б-р|бульвар|пл\.|площадь|мкр|микрорайон|д\.|дом|тер\.|снт)\s*|^\d/i;

/**
 * An address as the owner writes it («Республика Дагестан, Каспийск, ул. Приморская, 12») split as
 * search engines read it: postal code (six digits), region, locality, street. A part the rules do
 * not place stays in the street, so nothing written is lost.
 */
export function postalAddress(address: string) {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p && !/^(?:россия|рф|российская федерация)$/i.test(p));
  let postalCode: string | undefined;
  let region: string | undefined;
  let locality: string | undefined;
  const street: string[] = [];
  for (const part of parts) {
    if (!postalCode && /^\d{6}$/.test(part)) postalCode = part;
    else if (!region && REGION.test(part)) region = part;
    else if (!locality && LOCALITY.test(part)) locality = part.replace(LOCALITY, '');
    else if (!locality && !STREET.test(part) && street.length === 0) locality = part;
    else street.push(part);
  }
  return {
    '@type': 'PostalAddress',
    ...(street.length > 0 ? { streetAddress: street.join(', ') } : {}),
    ...(locality ? { addressLocality: locality } : {}),
    ...(region ? { addressRegion: region } : {}),
    ...(postalCode ? { postalCode } : {}),
    addressCountry: 'RU',
  };
}

/**
 * A cabin's address: its own location as written in «Домики» («Каспийск, ул. Морская, 3»), the
 * region and country of the business's address added where the location does not say them.
 */
function cabinAddress(location: string, siteAddress: string) {
  const site = postalAddress(siteAddress);
  if (!location.trim()) return site;
  const own = postalAddress(location);
  return {
    ...own,
    ...(!own.addressRegion && site.addressRegion ? { addressRegion: site.addressRegion } : {}),
    ...(!own.postalCode && own.addressLocality === site.addressLocality && site.postalCode
      ? { postalCode: site.postalCode }
      : {}),
  };
}

const geoLd = (geo: MapPoint | null | undefined) =>
  geo ? { geo: { '@type': 'GeoCoordinates', latitude: geo.latitude, longitude: geo.longitude } } : {};

/** The business: a LodgingBusiness with its contacts, and its guests' rating when there are published reviews. */
export function lodgingBusinessLd(ctx: LdContext, image?: string, reviews: readonly ReviewLdInput[] = []) {
  return {
    '@context': 'https://schema.org',
    '@type': 'LodgingBusiness',
    '@id': `${abs(ctx.origin, '/')}#business`,
    name: ctx.site.name,
    description: ctx.site.footer.description,
    url: abs(ctx.origin, '/'),
    telephone: ctx.site.phone,
    email: ctx.site.email,
    address: postalAddress(ctx.site.address),
    ...geoLd(ctx.geo),
    ...(image ? { image } : {}),
    checkinTime: ctx.checkInTime,
    checkoutTime: ctx.checkOutTime,
    currenciesAccepted: 'RUB',
    petsAllowed: true,
    smokingAllowed: false,
    ...(ctx.site.registry ? { identifier: registryLd(ctx.site.registry) } : {}),
    ...ratingLd(reviews, RATING_MAX),
  };
}

/** The register entry of a classified place of stay, as a schema.org PropertyValue. */
export const registryLd = (registry: { number: string; url: string }) => ({
  '@type': 'PropertyValue',
  propertyID: 'Реестр классифицированных средств размещения',
  value: registry.number,
  ...(registry.url ? { url: registry.url } : {}),
});

/**
 * One cabin: a VacationRental (a LodgingBusiness) containing the Accommodation that is let
 * as a whole, with occupancy, rooms, amenities, stay times and photos.
 */
export function vacationRentalLd(
  ctx: LdContext,
  cabin: CabinLdInput,
  images: string[],
  prices?: { min: number; max: number },
) {
  // The range of a night's price over the seasons ahead, or the one price per night.
  const range = prices && prices.min !== prices.max ? `${prices.min}–${prices.max}` : String(cabin.pricePerNight);
  const url = abs(ctx.origin, `/cabin/${cabin.id}`);
  const address = cabinAddress(cabin.location, ctx.site.address);
  return {
    '@context': 'https://schema.org',
    '@type': 'VacationRental',
    '@id': `${url}#rental`,
    identifier: String(cabin.id),
    name: cabin.name,
    description: cabin.description,
    url,
    ...(images.length > 0 ? { image: images } : {}),
    address,
    // The map's point is the business's: a cabin in another town is not there.
    ...(address.addressLocality === postalAddress(ctx.site.address).addressLocality ? geoLd(ctx.geo) : {}),
    telephone: ctx.site.phone,
    priceRange: `${range} RUB за ночь`,
    // The lowest price of a night, as an offer of the business (a place takes no `offers`).
    makesOffer: { '@type': 'Offer', price: prices?.min ?? cabin.pricePerNight, priceCurrency: 'RUB' },
    checkinTime: ctx.checkInTime,
    checkoutTime: ctx.checkOutTime,
    containsPlace: {
      '@type': 'Accommodation',
      additionalType: 'EntirePlace',
      name: cabin.name,
      occupancy: { '@type': 'QuantitativeValue', maxValue: cabin.maxGuests, unitCode: 'C62' },
      numberOfBedrooms: cabin.bedrooms,
      numberOfBathroomsTotal: cabin.bathrooms,
      amenityFeature: cabin.amenities.map((name) => ({ '@type': 'LocationFeatureSpecification', name, value: true })),
      petsAllowed: true,
      smokingAllowed: false,
    },
  };
}

/** The way to an inner page from the home page, as search engines show it under the result. */
export function breadcrumbLd(origin: string, trail: readonly { name: string; path: string }[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((t, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: t.name,
      item: abs(origin, t.path),
    })),
  };
}

/** JSON for a <script type="application/ld+json">: «<» escaped so no text can close the tag. */
export function ldJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** A review as search engines read it; one sent through the post-stay link says its author stayed. */
export type ReviewLdInput = {
  name: string;
  rating: number;
  comment: string;
  created_at: string;
  verifiedStay?: boolean;
};

const REVIEWS_LD_MAX = 20;

/** The mean rating of some reviews (0 for none): the /reviews page shows it, the JSON-LD rounds it. */
export const meanRating = (reviews: readonly { rating: number }[]) =>
  reviews.length > 0 ? reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length : 0;
const average = (reviews: readonly ReviewLdInput[]) => Math.round(meanRating(reviews) * 10) / 10;

type PropertyValueLd = { '@type': 'PropertyValue'; name: string; value: number; minValue?: number; maxValue?: number };
type RatingLd = {
  aggregateRating?: {
    '@type': 'AggregateRating';
    ratingValue: number;
    reviewCount: number;
    bestRating: number;
    worstRating: number;
  };
  additionalProperty?: PropertyValueLd[];
};

/**
 * The guests' rating of the business: the average and count of every published review, and, apart,
 * those of the reviews sent through the link of a real stay (schema.org has no «verified» rating,
 * so they are the place's PropertyValues). Nothing when no review is published.
 */
export function ratingLd(reviews: readonly ReviewLdInput[], bestRating: number): RatingLd {
  if (reviews.length === 0) return {};
  const verified = reviews.filter((r) => r.verifiedStay);
  return {
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: average(reviews),
      reviewCount: reviews.length,
      bestRating,
      worstRating: 1,
    },
    ...(verified.length > 0
      ? {
          additionalProperty: [
            { '@type': 'PropertyValue', name: 'Отзывы гостей, которые проживали', value: verified.length },
            {
              '@type': 'PropertyValue',
              name: 'Средняя оценка гостей, которые проживали',
              value: average(verified),
              minValue: 1,
              maxValue: bestRating,
            },
          ],
        }
      : {}),
  };
}

/** The same text the cards show for a review whose author stayed (sent through their booking's link). */
export const VERIFIED_STAY_LABEL = 'Гость проживал(а)';

/**
 * The business with its guests' reviews and their average (/reviews): each review's author is a
 * Person, described as «Гость проживал(а)» when the review came through the link of a real stay.
 */
export function reviewsLd(origin: string, businessName: string, reviews: readonly ReviewLdInput[], bestRating: number) {
  if (reviews.length === 0) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'LodgingBusiness',
    '@id': `${abs(origin, '/')}#business`,
    name: businessName,
    ...ratingLd(reviews, bestRating),
    // The newest reviews only: the page's weight stays the same however many there are; the average counts them all.
    review: reviews.slice(0, REVIEWS_LD_MAX).map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.name, ...(r.verifiedStay ? { description: VERIFIED_STAY_LABEL } : {}) },
      datePublished: r.created_at.slice(0, 10),
      reviewBody: r.comment,
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating, worstRating: 1 },
    })),
  };
}
