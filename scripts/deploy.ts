import path from 'node:path';
import { buildSite, hasBuild } from './build-site.ts';
import { writePlaceholder } from './lib/stack.ts';
import { ROOT, run } from './lib/tools.ts';

// Builds the site against the production API, then deploys worker and assets together.
// On the very first deploy the API does not exist yet: deploy once to create it, then build.
const apiUrl = process.env.API_URL;
if (!apiUrl) {
  console.error('Set API_URL to the public address of the site, e.g. API_URL=https://kaspiy.ru npm run deploy');
  process.exit(1);
}
const outDir = path.join(ROOT, 'dist');
const reachable = await fetch(new URL('/api/build-info', apiUrl)).then(
  (r) => r.ok,
  () => false,
);
if (!reachable) {
  console.log('The API is not live yet: deploying the worker first.');
  if (!(await hasBuild(outDir))) await writePlaceholder(outDir);
  await run('wrangler', ['deploy']);
}
const { contentVersion } = await buildSite({ apiUrl, outDir, siteUrl: process.env.SITE_URL ?? apiUrl });
console.log(`Site built at content version ${contentVersion}; deploying…`);
await run('wrangler', ['deploy']);
