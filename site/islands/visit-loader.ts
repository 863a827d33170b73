// Every public page's visit line (visit-line.ts): after the first paint.
import { afterFirstPaint } from './after-first-paint.ts';
import { visitLine } from './visit-line.ts';

visitLine(afterFirstPaint);
