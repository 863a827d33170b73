// Structured data (schema.org JSON-LD) for search engines: the business on every page,
// and each cabin as a vacation rental.
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
}

const abs = (origin: string, path: string) => new URL(path, origin).href;

function postalAddress(address: string) {
  return { '@type': 'PostalAddress', streetAddress: address, addressCountry: 'RU' };
}

/** The business: a LodgingBusiness with its contacts. */
export function lodgingBusinessLd(ctx: LdContext, image?: string) {
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
    ...(image ? { image } : {}),
    checkinTime: ctx.checkInTime,
    checkoutTime: ctx.checkOutTime,
    currenciesAccepted: 'RUB',
    petsAllowed: true,
    smokingAllowed: false,
    ...(ctx.site.registry ? { identifier: registryLd(ctx.site.registry) } : {}),
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
export function vacationRentalLd(ctx: LdContext, cabin: CabinLdInput, images: string[], prices?: { min: number; max: number }) {
  // The range of a night's price over the seasons ahead, or the one price per night.
  const range = prices && prices.min !== prices.max ? `${prices.min}–${prices.max}` : String(cabin.pricePerNight);
  const url = abs(ctx.origin, `/cabin/${cabin.id}`);
  return {
    '@context': 'https://schema.org',
    '@type': 'VacationRental',
    '@id': `${url}#rental`,
    identifier: String(cabin.id),
    name: cabin.name,
    description: cabin.description,
    url,
    ...(images.length > 0 ? { image: images } : {}),
    address: postalAddress(cabin.location.trim() || ctx.site.address),
    telephone: ctx.site.phone,
    priceRange: `${range} RUB за ночь`,
    checkinTime: ctx.checkInTime,
    checkoutTime: ctx.checkOutTime,
    brand: { '@type': 'Brand', name: ctx.site.name },
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

/** JSON for a <script type="application/ld+json">: «<» escaped so no text can close the tag. */
export function ldJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
