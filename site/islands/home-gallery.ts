// The home gallery's few lines in the page (components/HomeGallery.astro),
// bundled into the home page's inline script (islands/home.ts). The page carries the first
// group of photos; when the visitor comes within a screen of the gallery these lines fetch the
// others (home-gallery.json) and, at the same time, the rotation's module from the address the
// build wrote into data-rotation (islands/home-gallery-rotation.ts; a literal import() would
// make this script a file of its own, loaded with the page). If either cannot be loaded the
// first group stays, as it does without script. The page writes data-rest and data-rotation
// only when there is more than one group (components/HomeGallery.astro).
type Rotation = typeof import('./home-gallery-rotation.ts');

for (const root of document.querySelectorAll<HTMLElement>('[data-gallery]')) {
  const { rest, rotation } = root.dataset;
  if (!rest || !rotation?.startsWith('/_astro/')) continue;
  const start = () =>
    Promise.all([
      import(/* @vite-ignore */ rotation) as Promise<Rotation>,
      fetch(rest).then((res) =>
        res.ok ? (res.json() as Promise<{ items: string[] }>) : Promise.reject(new Error(String(res.status))),
      ),
    ])
      .then(([m, { items }]) => m.showRest(root, items))
      .catch(() => {});
  // When the visitor comes within a screen of the gallery: a visitor who never scrolls there
  // fetches nothing, and nothing competes with the first screen (Lighthouse's slow-4G model
  // counted even a fetch made after the load event against the home page's LCP).
  const near = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      void start();
    },
    { rootMargin: '100% 0px' },
  );
  near.observe(root);
}

export {};
