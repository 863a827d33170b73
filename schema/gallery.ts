// The home-page gallery: 6 photos at a time, the next group every 8 seconds.
export const GALLERY_GROUP_SIZE = 6;
export const GALLERY_ROTATION_MS = 8000;
/**
 * In the home gallery (site/components/HomeGallery.astro): the address of the rotation's module,
 * which the build writes in once the bundle has named it (scripts/build-site.ts), so the page's
 * few inline lines load it when the visitor nears the gallery, not with the page.
 */
export const GALLERY_ROTATION_MARKER = '__GALLERY_ROTATION_URL__';
/** The built module's file name in _astro/: site/islands/home-gallery-rotation.ts. */
export const GALLERY_ROTATION_CHUNK = /^home-gallery-rotation\.[\w-]+\.js$/;
