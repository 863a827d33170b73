// The markers of the /search page's shell (site/pages/shell/search.astro and the card fragments
// of site/pages/shell/cards/) that the server replaces with the visitor's query and the results
// (worker/pages/search.ts). One list, so the build and the server never disagree.
export const SEARCH_MARKERS = {
  title: '__SEARCH_TITLE__',
  heading: '__SEARCH_HEADING__',
  checkIn: '__SEARCH_CHECK_IN__',
  checkOut: '__SEARCH_CHECK_OUT__',
  guests: '__SEARCH_GUESTS__',
  childrenAges: '__SEARCH_CHILDREN__',
  /** The whole attribute, put in the pets checkbox: the server writes `checked` or nothing in its place. */
  pets: 'data-pets="__SEARCH_PETS__"',
  error: '<!--search-error-->',
  results: '<!--search-results-->',
  /** In a card: the stay's price line, and the query after the cabin's address. */
  stayPrice: '<!--search-stay-price-->',
  stayQuery: '__SEARCH_STAY_QUERY__',
} as const;

/**
 * In every search form (site/components/SearchForm.astro): the address of the date picker's
 * module, which the build writes in once the bundle has named it (scripts/build-site.ts), so the
 * form's few inline lines can load it on a touch without a script file loading with the page.
 */
export const SEARCH_PICKER_MARKER = '__SEARCH_PICKER_URL__';
/** The built module's file name in _astro/: site/islands/mount-search-dates.ts. */
export const SEARCH_PICKER_CHUNK = /^mount-search-dates\.[\w-]+\.js$/;
