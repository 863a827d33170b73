// /build-pages.json: the key of every page made per cabin or per catalogue page (lib/page-keys.ts),
// which the next build compares with to render only what changed. Written with every build.
import type { APIRoute } from 'astro';
import { buildManifest } from '../lib/page-keys.ts';

export const GET: APIRoute = async () =>
  new Response(JSON.stringify(await buildManifest()), { headers: { 'content-type': 'application/json' } });
