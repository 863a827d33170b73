// The site's icons: 24×24, 2px round strokes in currentColor (the .icon class in global.css
// sets the stroke), drawn for this site. Brand marks are simplified outlines, not official logos.
// Each entry is the inner markup of an <svg viewBox="0 0 24 24">; use iconSvg() for the whole tag
// (Astro: <Fragment set:html={iconSvg('phone')} />; React: <svg … dangerouslySetInnerHTML={{ __html: ICONS.phone }} />).

import { escapeHtml } from '../../schema/html.ts';
import { iconCheck, iconClose, iconLogo, iconRefresh, iconX } from './icons-base.ts';

export { iconCheck, iconClose, iconLogo, iconRefresh, iconX };

// One export per icon, so an island's bundle carries only the icons it draws.
export const iconPhone =
  '<path d="M5 3.5h3.2l1.6 4.6-2.1 1.4a11.5 11.5 0 0 0 6.8 6.8l1.4-2.1 4.6 1.6V19a2 2 0 0 1-2.2 2A17 17 0 0 1 3 5.7a2 2 0 0 1 2-2.2z"/>';
export const iconWhatsapp =
  '<path d="M3.5 20.5l1.3-4.3a8.5 8.5 0 1 1 3.1 3z"/><path d="M9 8.2c-.3 2.6 2.2 5.6 5.3 6.1l1.2-1.4-1.9-1-.9.8a4.6 4.6 0 0 1-2.3-2.3l.8-.9-1-1.9z"/>';
export const iconMail = '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="m3.5 7 8.5 6 8.5-6"/>';
export const iconMapPin =
  '<path d="M12 21s-7-6.1-7-11.5a7 7 0 0 1 14 0C19 14.9 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/>';
export const iconClock = '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3.5 2"/>';
export const iconBed =
  '<path d="M3 5v14M3 15h18v4M21 15v-2.5A3.5 3.5 0 0 0 17.5 9H11v6"/><circle cx="7" cy="11.5" r="2"/>';
export const iconBath =
  '<path d="M4 12h16v2.5a4.5 4.5 0 0 1-4.5 4.5h-7A4.5 4.5 0 0 1 4 14.5zM6 12V6a2 2 0 0 1 3.7-1M7 19l-1 2M17 19l1 2"/>';
export const iconUsers =
  '<circle cx="9" cy="8" r="3.5"/><path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.7a3.5 3.5 0 0 1 0 6.6M18 14.3a6.5 6.5 0 0 1 3.5 5.7"/>';
export const iconStarFilled =
  '<path fill="currentColor" d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2-5.6-3-5.6 3 1.1-6.2L3 9.6l6.2-.9z"/>';
export const iconStarEmpty = '<path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2-5.6-3-5.6 3 1.1-6.2L3 9.6l6.2-.9z"/>';
export const iconChevronLeft = '<path d="m15 18-6-6 6-6"/>';
export const iconChevronRight = '<path d="m9 18 6-6-6-6"/>';
export const iconMenu = '<path d="M4 6h16M4 12h16M4 18h16"/>';
export const iconWave =
  '<path d="M2 9c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2M2 14c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2M2 19c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2"/>';
export const iconImage =
  '<rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="8.5" cy="9.5" r="1.5"/><path d="m21 15-4.5-4.5L7 20"/>';
export const iconUmbrella = '<path d="M3 12a9 9 0 0 1 18 0zM12 12v6.5a2 2 0 0 0 4 0"/>';
export const iconCalendar = '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>';
export const iconPlus = '<path d="M12 5v14M5 12h14"/>';
export const iconEdit = '<path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16z"/><path d="m13.5 6.5 4 4"/>';
export const iconTrash = '<path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"/>';
export const iconUpload = '<path d="M12 15V4M7 9l5-5 5 5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3"/>';
export const iconTelegram =
  '<path d="M21.5 3.5 2.5 11l6.5 2.4 2.4 6.9 3.5-4.2 5 3.6z"/><path d="m9 13.4 8.5-6.2-6.1 7.3"/>';
/** MAX has no icon of ours: a plain chat bubble. */
export const iconChat = '<path d="M4 5h16v11H9.5L5 20v-4H4z"/><path d="M8 9.5h8M8 12.5h5"/>';
export const iconVk =
  '<path d="M3 7.5c.5 5.8 3.8 9.5 9.5 9.5h.5v-3.3c2 .2 3.4 1.5 4.2 3.3H21c-.9-2.8-2.8-4.5-4.3-5.2 1.4-.8 3.2-2.6 3.7-4.3h-3.1c-.6 1.9-2.2 3.5-4.3 3.8V7.5h-3V14C7.8 13.5 6.4 11 6.2 7.5z"/>';
export const iconInstagram =
  '<rect x="3" y="3" width="18" height="18" rx="5"/><circle cx="12" cy="12" r="4"/><path d="M17.3 6.7h.01"/>';
export const iconFacebook =
  '<path d="M15.5 3H13a4.5 4.5 0 0 0-4.5 4.5V10H6v3.5h2.5V21H12v-7.5h3l.5-3.5H12V8a1 1 0 0 1 1-1h2.5z"/>';

export const ICONS = {
  phone: iconPhone,
  whatsapp: iconWhatsapp,
  mail: iconMail,
  'map-pin': iconMapPin,
  clock: iconClock,
  bed: iconBed,
  bath: iconBath,
  users: iconUsers,
  'star-filled': iconStarFilled,
  'star-empty': iconStarEmpty,
  'chevron-left': iconChevronLeft,
  'chevron-right': iconChevronRight,
  close: iconClose,
  menu: iconMenu,
  logo: iconLogo,
  wave: iconWave,
  check: iconCheck,
  x: iconX,
  image: iconImage,
  umbrella: iconUmbrella,
  calendar: iconCalendar,
  plus: iconPlus,
  edit: iconEdit,
  trash: iconTrash,
  upload: iconUpload,
  refresh: iconRefresh,
  telegram: iconTelegram,
  chat: iconChat,
  vk: iconVk,
  instagram: iconInstagram,
  facebook: iconFacebook,
} as const;

export type IconName = keyof typeof ICONS;

export interface IconOptions {
  /** Width and height in CSS pixels; omit to let the .icon class size it (1.25em of the text). */
  size?: number;
  /** Extra classes after «icon». */
  className?: string;
  /** An accessible name; without one the icon is decorative (aria-hidden). */
  label?: string;
}

/** The whole <svg> tag of an icon, ready to inline. */
export function iconSvg(name: IconName, { size, className, label }: IconOptions = {}): string {
  const cls = className ? `icon ${escapeHtml(className)}` : 'icon';
  const dims = size ? ` width="${size}" height="${size}" style="width:${size}px;height:${size}px"` : '';
  const a11y = label ? ` role="img" aria-label="${escapeHtml(label)}"` : ' aria-hidden="true"';
  return `<svg class="${cls}" viewBox="0 0 24 24"${dims}${a11y}>${ICONS[name]}</svg>`;
}

/**
 * A short <svg> that draws an icon from the page's sprite (see iconSprite): for icons repeated
 * on a page, such as the counts on every cabin card.
 */
export function iconUse(name: IconName, { className, label }: Omit<IconOptions, 'size'> = {}): string {
  const cls = className ? `icon ${escapeHtml(className)}` : 'icon';
  const a11y = label ? ` role="img" aria-label="${escapeHtml(label)}"` : ' aria-hidden="true"';
  return `<svg class="${cls}"${a11y}><use href="#i-${name}"/></svg>`;
}

/** The hidden sprite holding the given icons as <symbol id="i-name">, once per page. */
export function iconSprite(names: readonly IconName[]): string {
  const symbols = [...new Set(names)]
    .map((n) => `<symbol id="i-${n}" viewBox="0 0 24 24">${ICONS[n]}</symbol>`)
    .join('');
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true">${symbols}</svg>`;
}
