// The limits of search by dates and of the owner's occupancy chart, without zod, so
// the search form's date picker can read them without loading a validator.

/** How far ahead a search may start, in days from today (Moscow). */
export const SEARCH_HORIZON_DAYS = 365;
/** The longest stay a search looks for. */
export const SEARCH_MAX_NIGHTS = 60;
/** The most guests a search takes. */
export const SEARCH_MAX_GUESTS = 50;
/** A busy cabin's nearest free stay of the same length starts at most this many days either side. */
export const SEARCH_NEAREST_DAYS = 7;
/** Results on one page of /search, as the catalogue's page. */
export const SEARCH_PAGE_SIZE = 12;
/** The owner's occupancy chart: at most this many days at once, this many by default. */
export const OCCUPANCY_MAX_DAYS = 92;
export const OCCUPANCY_DEFAULT_DAYS = 31;
