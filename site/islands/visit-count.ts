// Every public page's count of its view, loaded once the page has loaded (site/layouts/Base.astro):
// one beacon, and on a cabin's page the card opened too, on the results page a search.
import { beginsVisit, track } from '../lib/visit.ts';

track('view', { landing: beginsVisit() });
const cabin = /^\/cabin\/(\d+)/.exec(location.pathname);
if (cabin) track('card', { cabinId: Number(cabin[1]) });
if (location.pathname === '/search') track('search');
