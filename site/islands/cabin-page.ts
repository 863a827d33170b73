// The cabin page's behaviour, written into the page as one script right after the gallery and
// the photo viewer's island (lib/cabin-page-script.ts): one tag and one CSP hash, bundled without
// esbuild's export wrapper, since the cabin page's HTML has to arrive in the first round trip.
import './second-photo-waits.ts';
import { wakeOnInteraction } from './wake.ts';

// The photo viewer (React) loads when a visitor reaches for a photo, not with the page.
wakeOnInteraction('viewer', '[data-viewer]');
