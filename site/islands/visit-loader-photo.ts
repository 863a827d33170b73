// The visit line (visit-line.ts) of a page whose first screen is a photo, the cabin page: after
// that photo is painted as well. Its own copy, so the other pages carry none of this.
import { afterMainPhoto } from './after-first-paint.ts';
import { visitLine } from './visit-line.ts';

visitLine(afterMainPhoto);
