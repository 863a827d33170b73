// /reviews.json: every approved review as the reviews page's list shows them, made by the same
// build as the page, so the list hydrates over exactly what the page drew
// (site/islands/mount-reviews.ts). Rebuilt with every build, as /reviews is.
import type { APIRoute } from 'astro';
import { loadApprovedReviews } from '../lib/content.ts';

export const GET: APIRoute = async () =>
  new Response(JSON.stringify(await loadApprovedReviews()), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
