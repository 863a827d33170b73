// The panel's address after «#»: the tab, and what in it is open — «#bookings/12» is request
// №12 in «Заявки», «#calendar/3» the calendar of cabin 3. So a tap in «Шахматка» is a link the
// browser's «Назад» undoes, and a reload opens the same place.
import { useEffect, useState } from 'react';

const parts = (): [string, string] => {
  const hash = typeof location === 'undefined' ? '' : decodeURIComponent(location.hash.slice(1));
  const slash = hash.indexOf('/');
  return slash < 0 ? [hash, ''] : [hash.slice(0, slash), hash.slice(slash + 1)];
};

/** The tab named in the address, '' when none. */
export const hashTab = (): string => parts()[0];

/** What in the tab the address opens: «12» of «#bookings/12», '' when nothing. */
export const hashDetail = (): string => parts()[1];

/** The address of a tab, or of something in it. */
export const tabHref = (tab: string, detail?: string | number): string =>
  detail === undefined || detail === '' ? `#${tab}` : `#${tab}/${detail}`;

/** hashDetail, kept current as the address changes (links, «Назад»). */
export function useHashDetail(): string {
  const [detail, setDetail] = useState(hashDetail);
  useEffect(() => {
    const onHash = () => setDetail(hashDetail());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return detail;
}
