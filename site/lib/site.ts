// The site's contact details as every page shows them, derived from the resolved settings
// (top-level values already win over contactInfo there; blank footer fields fall back to the
// main ones here).
import { CONTACT_PAGE_DEFAULTS, DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { telHref } from './tel.ts';
import { whatsappNumber } from './whatsapp.ts';

/** The settings fields the public pages read. */
export interface SiteSettings {
  siteName: string;
  phone: string;
  email: string;
  address: string;
  footerDescription: string;
  footerPhone: string;
  footerEmail: string;
  footerAddress: string;
  ownerName?: string;
  registryNumber?: string;
  registryUrl?: string;
}

export interface SiteInfo {
  name: string;
  phone: string;
  /** tel: link of the phone. */
  phoneHref: string;
  /** Digits for wa.me. */
  whatsapp: string;
  email: string;
  address: string;
  ownerName: string;
  /** The entry in the register of classified accommodation, when the owner has set it. */
  registry: { number: string; url: string } | null;
  footer: { description: string; phone: string; phoneHref: string; email: string; address: string };
}

/** The year in every page's footer («© 2026»): part of what every page shows (lib/page-keys.ts). */
export const footerYear = (): number => new Date().getFullYear();

const pick = (...values: (string | undefined | null)[]): string =>
  values.map((v) => v?.trim() ?? '').find(Boolean) ?? '';

export function siteInfo(s: SiteSettings): SiteInfo {
  const name = pick(s.siteName, DEFAULT_SETTINGS.siteName);
  const phone = pick(s.phone, DEFAULT_SETTINGS.phone);
  const email = pick(s.email, DEFAULT_SETTINGS.email);
  const address = pick(s.address, DEFAULT_SETTINGS.address);
  const footerPhone = pick(s.footerPhone, phone);
  return {
    name,
    phone,
    phoneHref: telHref(phone),
    whatsapp: whatsappNumber(phone),
    email,
    address,
    ownerName: pick(s.ownerName, DEFAULT_SETTINGS.ownerName),
    registry: pick(s.registryNumber) ? { number: pick(s.registryNumber), url: pick(s.registryUrl) } : null,
    footer: {
      description: pick(s.footerDescription, DEFAULT_SETTINGS.footerDescription),
      phone: footerPhone,
      phoneHref: telHref(footerPhone),
      email: pick(s.footerEmail, email),
      address: pick(s.footerAddress, address),
    },
  };
}

/** The contact page: its fixed defaults with phone, e-mail and address from the settings. */
export function contactPage(s: SiteSettings) {
  const info = siteInfo(s);
  return {
    ...CONTACT_PAGE_DEFAULTS,
    phone: info.phone,
    phoneHref: info.phoneHref,
    email: info.email,
    address: info.address,
    whatsapp: info.whatsapp,
  };
}
