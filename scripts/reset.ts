import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './lib/tools.ts';

// Wipes the local database, photos and built site; the next `npm start` seeds anew.
for (const dir of ['.wrangler/state', 'dist', 'node_modules/.cache/site-staging']) {
  await rm(path.join(ROOT, dir), { recursive: true, force: true });
}
console.log('Local data and build removed. `npm start` will recreate the demo site.');
