// /home-gallery.json: the home gallery's photos after the first group, as the grid's items
// (lib/home-gallery.ts). The home page fetches it when the visitor nears the
// gallery, for its rotation.
import type { APIRoute } from 'astro';
import { loadSettings } from '../lib/content.ts';
import { galleryMarkup } from '../lib/home-gallery.ts';

export const GET: APIRoute = async () => {
  const { rest } = await galleryMarkup((await loadSettings()).galleryImages);
  return new Response(JSON.stringify({ items: rest }), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
