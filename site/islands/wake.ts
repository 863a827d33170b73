// Islands that hydrate on the visitor's first sign of interest instead of at page load, so a
// phone does not download and run React until someone wants the behaviour.
//
// The island renders a hidden <span class="wake" data-wake="name"> next to its markup (which
// sits in a `display: contents` wrapper, so Astro's client:visible observer never sees it).
// wakeOnInteraction() un-hides the span when the pointer, a touch or the focus reaches one of
// the island's controls; client:visible then hydrates the island. A click that comes before
// the island is ready is held and replayed once it is (the island calls useIslandReady); an
// island that hydrates by itself (the booking card, client:visible) can have its clicks held too.
// (No React here: the page's own script imports this file; islands use useIslandReady.ts.)

export const READY = 'island:ready';

/**
 * On the page (a plain script): wake the island `name` when `targets` are approached: un-hide its
 * span, or call `wake` (a page that hydrates its places itself, without Astro's islands).
 */
export function wakeOnInteraction(
  name: string,
  targets: string,
  { now = false, wake }: { now?: boolean; wake?: () => void } = {},
) {
  const span = document.querySelector<HTMLElement>(`[data-wake="${name}"]`);
  const unhide = () => {
    if (span) span.hidden = false;
  };
  if (!wake && !span) return;
  const wakeUp = wake ?? unhide;
  if (now) wakeUp();
  const near = (e: Event) => {
    if ((e.target as Element | null)?.closest?.(targets)) wakeUp();
  };
  for (const type of ['pointerover', 'touchstart', 'focusin'])
    document.addEventListener(type, near, { capture: true, passive: true });
  holdClicks(name, targets, wakeUp);
}

/**
 * On the page (a plain script): a click on `targets` before the island `name` is ready is held,
 * not lost, and replayed on the same element once the island says it is ready (useIslandReady).
 */
export function holdClicks(name: string, targets: string, onHeld: () => void = () => {}) {
  const isReady = () => document.documentElement.hasAttribute(`data-${name}-ready`);
  let held: HTMLElement | null = null;
  document.addEventListener(
    'click',
    (e) => {
      const target = (e.target as Element | null)?.closest<HTMLElement>(targets);
      if (!target || isReady()) return;
      e.preventDefault();
      e.stopPropagation();
      held = target;
      onHeld();
    },
    { capture: true },
  );
  document.addEventListener(READY, (e) => {
    if ((e as CustomEvent<string>).detail !== name || !held) return;
    const target = held;
    held = null;
    // Let React finish attaching its handlers, then replay the click.
    setTimeout(() => target.click(), 0);
  });
}
