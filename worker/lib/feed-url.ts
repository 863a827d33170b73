// An imported calendar's address (Суточно's, Avito's iCal link) is a key: whoever has it reads
// that platform's bookings of the cabin. The owner sees it whole in «Календари»; a manager and
// «Журнал» see which platform it is and its last 4 characters, enough to tell two apart.

/** «https://ical.avito.ru/export/…/a1b2» → «ical.avito.ru/…a1b2». A masked address stays as it is. */
export function maskFeedUrl(url: string): string {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return url.includes('/…') ? url : `…${url.slice(-4)}`;
  }
  return `${host}/…${url.slice(-4)}`;
}
