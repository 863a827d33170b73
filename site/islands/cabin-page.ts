// The cabin page's behaviour, written into the page as one script right after the gallery and
// the photo viewer's island (lib/cabin-page-script.ts): one tag and one CSP hash, bundled without
// esbuild's export wrapper, since the cabin page's HTML has to arrive in the first round trip.
import './second-photo-waits.ts';
import { holdClicks, wakeOnInteraction } from './wake.ts';

// The photo viewer (React) loads when a visitor reaches for a photo, not with the page.
wakeOnInteraction('viewer', '[data-viewer]');
// The booking card hydrates once in view, a second later on a slow phone: a tap on its dates
// meanwhile is kept and opens the calendar when it is ready. (The guests field is a plain
// <select>: it works before, and the card reads its choice when it wakes.)
holdClicks('booking', '#booking .booking__date');
