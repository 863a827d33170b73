import { MONTHS_GENITIVE, SITE_UTC_OFFSET_MINUTES } from '../../../schema/format.ts';

// A session's device as the owner reads it in «Аккаунт» → «Сеансы»: «Chrome на Android», not a
// user-agent string. Only the common browsers and systems are named; anything else is said plainly.

const BROWSERS: readonly [RegExp, string][] = [
  // Order matters: each of these also says «Chrome» or «Safari» in its user agent.
  [/YaBrowser\//, 'Яндекс Браузер'],
  [/EdgA?\/|Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/CrOS/, 'Chromebook'],
  [/Linux/, 'Linux'],
];

const first = (ua: string, list: readonly [RegExp, string][]) => list.find(([re]) => re.test(ua))?.[1];

/** «Chrome на Android», «Safari на iPhone», «Firefox», «Неизвестное устройство». */
export function deviceName(userAgent: string): string {
  const ua = userAgent ?? '';
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  if (browser && system) return `${browser} на ${system}`;
  if (browser || system) return (browser ?? system)!;
  return ua.trim() ? 'Неизвестное устройство' : 'Устройство не указано';
}

/**
 * A moment (ms) in Moscow time: «24 ноября, 17:53 (мск)», with the year when it is not this one
 * («1 января 2026, 01:30 (мск)»). By hand, not Intl: browsers' ICU words it differently.
 */
export function moscowMoment(ms: number, nowMs = Date.now()): string {
  const at = new Date(ms + SITE_UTC_OFFSET_MINUTES * 60_000);
  const year = at.getUTCFullYear();
  const thisYear = new Date(nowMs + SITE_UTC_OFFSET_MINUTES * 60_000).getUTCFullYear();
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getUTCDate()} ${MONTHS_GENITIVE[at.getUTCMonth()]}${year === thisYear ? '' : ` ${year}`}`;
  return `${day}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} (мск)`;
}
