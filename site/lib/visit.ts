// The site's own counting of a visit (docs/features.md «Откуда гости»), with no cookie: where the
// visit came from is kept in the tab's sessionStorage for the visit, sent with each beacon and
// with a booking request, and nothing else of the visitor is kept anywhere. A dropped beacon is
// fine: the page never waits on one. Every page carries this code (site/islands/visit-count.ts),
// so it is kept short.
import type { BeaconKind, BookingSource } from '../../schema/visits.ts';

type Visit = { utm?: { source: string; medium?: string; campaign?: string }; ref?: string };

const KEY = 'kaspiy.visit';

function read(): Visit | null {
  try {
    return JSON.parse(sessionStorage[KEY] ?? 'null') as Visit | null;
  } catch {
    return null;
  }
}

/**
 * Keeps this visit's source and says whether this page began the visit: a page opened from
 * another site or from a tagged link begins one; a page reached from this site goes on with it.
 */
export function beginsVisit(): boolean {
  const q = new URLSearchParams(location.search);
  const source = q.get('utm_source');
  let from = '';
  try {
    from = new URL(document.referrer).host;
  } catch {}
  if (from === location.host) from = '';
  if (read() && !source && !from) return false;
  const visit: Visit = {
    ...(source && {
      utm: { source, medium: q.get('utm_medium') ?? undefined, campaign: q.get('utm_campaign') ?? undefined },
    }),
    ...(from && { ref: from }),
  };
  try {
    sessionStorage[KEY] = JSON.stringify(visit);
  } catch {}
  return true;
}

/**
 * Sends one beacon of this visit (never from a guest's own page, whose address is their key), and
 * tells Yandex Metrika of the same goal when the visitor agrees to it (site/islands/metrika-consent.ts
 * leaves `kaspiyGoal` only then); a payment also carries its e-commerce purchase.
 */
export function track(kind: BeaconKind, extra?: { cabinId?: number; landing?: boolean }, purchase?: unknown): void {
  if (location.pathname.startsWith('/b/')) return;
  if (kind !== 'view') {
    // Queued in the page until the consent module has come (after the page's load): they reach
    // Metrika only once the visitor agrees.
    const w = window as { kaspiyGoal?: (name: string, purchase?: unknown) => void; kaspiyGoals?: unknown[][] };
    try {
      if (w.kaspiyGoal) w.kaspiyGoal(kind, purchase);
      else (w.kaspiyGoals ||= []).push([kind, purchase]);
    } catch {}
  }
  try {
    const body = JSON.stringify({ kind, path: location.pathname, ...read(), ...extra });
    navigator.sendBeacon('/api/beacon', new Blob([body], { type: 'application/json' }));
  } catch {}
}

/** What a booking request carries of its visit: the link's tags and the referring host. */
export function visitSource(): BookingSource | undefined {
  const v = read();
  const s: BookingSource = JSON.parse(
    JSON.stringify({
      utmSource: v?.utm?.source,
      utmMedium: v?.utm?.medium,
      utmCampaign: v?.utm?.campaign,
      referrer: v?.ref,
    }),
  );
  return Object.keys(s).length > 0 ? s : undefined;
}
