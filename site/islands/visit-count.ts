// Every public page's count of its view (written into the page by Base.astro): after the page has
// loaded, one beacon; on a cabin's page, the card opened too, and on the results page a search.
import { beginsVisit, track } from '../lib/visit.ts';

const landing = beginsVisit();
addEventListener('load', () => {
  track('view', { landing });
  const cabin = /^\/cabin\/(\d+)/.exec(location.pathname);
  if (cabin) track('card', { cabinId: Number(cabin[1]) });
  if (location.pathname === '/search') track('search');
});
