// The full-screen photo viewer of a cabin page. The page shows its first
// photos as plain links (<a data-viewer="i">) to the full-size photo; once this island is up
// it opens them here instead: previous/next wrapping at both ends, arrow keys, Escape,
// thumbnails and a counter, focus kept inside and returned on close, swipe on touch screens.
// It reads the shown photos from the page (their <img> srcset) and gets only the rest as
// props, so the page's HTML stays small however many photos a cabin has. It hydrates when the
// visitor reaches for a photo (wake.ts), not with the page.
import { useCallback, useEffect, useRef, useState, type TouchEvent } from 'react';
import { Icon } from './Icon.tsx';
import { useModal } from './useModal.ts';
import { counterText } from '../lib/texts.ts';
import { wrapIndex } from '../lib/gallery.ts';
import viewerCss from './PhotoViewer.css?inline';
import { useIslandReady } from './useIslandReady.ts';
import { adoptStyles } from './adopt-styles.ts';
import { iconChevronLeft, iconChevronRight, iconClose } from '../components/icons.ts';

export interface ViewerPhoto {
  /** WebP srcset, smallest first: the first is the thumbnail, the last the full-size photo. */
  srcset: string;
  width: number;
  height: number;
}

interface Props {
  /** The photos the page does not show itself, in order after the shown ones. */
  more: ViewerPhoto[];
  /** The cabin's name, for alt texts. */
  name: string;
}

const urls = (srcset: string) =>
  srcset
    .split(',')
    .map((c) => c.trim().split(/\s+/)[0]!)
    .filter(Boolean);

/** The photos the page shows, from their links, in data-viewer order. */
function pagePhotos(): ViewerPhoto[] {
  return [...document.querySelectorAll<HTMLElement>('[data-viewer]')]
    .sort((a, b) => Number(a.dataset.viewer) - Number(b.dataset.viewer))
    .map((link) => {
      const img = link.querySelector('img');
      return { srcset: img?.getAttribute('srcset') ?? '', width: img?.width || 3, height: img?.height || 2 };
    });
}

export default function PhotoViewer({ more, name }: Props) {
  const [index, setIndex] = useState<number | null>(null);
  // In the browser the list is read from the page at once (nothing of it is drawn while the
  // viewer is closed, so the server's shorter list cannot clash with it).
  const [photos] = useState<ViewerPhoto[]>(() => (typeof document === 'undefined' ? more : [...pagePhotos(), ...more]));
  // The viewer's styles travel with its script, not in every cabin page's HTML.
  useEffect(() => adoptStyles(viewerCss), []);
  const dialog = useRef<HTMLDivElement>(null);
  const touchX = useRef<number | null>(null);
  const count = photos.length;
  const close = useCallback(() => setIndex(null), []);
  const go = useCallback((step: number) => setIndex((i) => (i === null ? i : wrapIndex(i, step, count))), [count]);
  useModal(dialog, index !== null, close);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest<HTMLElement>('[data-viewer]');
      if (!link) return;
      const i = Number(link.dataset.viewer);
      if (!Number.isInteger(i) || i < 0 || i >= count) return;
      e.preventDefault();
      link.focus();
      setIndex(i);
    };
    document.addEventListener('click', onClick);
    // The photos now open a dialog.
    const links = document.querySelectorAll('[data-viewer]');
    links.forEach((a) => a.setAttribute('aria-haspopup', 'dialog'));
    return () => {
      document.removeEventListener('click', onClick);
      links.forEach((a) => a.removeAttribute('aria-haspopup'));
    };
  }, [count]);

  useEffect(() => {
    if (index === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') go(-1);
      else if (e.key === 'ArrowRight') go(1);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [index, go]);

  // The current thumbnail stays in view.
  useEffect(() => {
    if (index === null) return;
    dialog.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [index]);

  useIslandReady('viewer');

  const wake = <span className="wake" data-wake="viewer" hidden />;
  if (index === null || count === 0) return <>{wake}</>;
  const photo = photos[index]!;
  const list = urls(photo.srcset);
  const onTouchStart = (e: TouchEvent) => {
    touchX.current = e.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touchX.current;
    const end = e.changedTouches[0]?.clientX;
    touchX.current = null;
    if (start == null || end == null || Math.abs(end - start) < 40) return;
    go(end < start ? 1 : -1);
  };

  return (
    <>
      {wake}
      <div className="viewer" ref={dialog} role="dialog" aria-modal="true" aria-label={`Фото: ${name}`} tabIndex={-1}>
        <div className="viewer__bar">
          <p className="viewer__counter" aria-live="polite">
            {counterText(index, count)}
          </p>
          <button
            type="button"
            className="btn btn--icon viewer__btn"
            onClick={close}
            aria-label="Закрыть"
            data-autofocus
          >
            <Icon svg={iconClose} />
          </button>
        </div>
        <div
          className="viewer__stage"
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          onClick={(e) => e.target === e.currentTarget && close()}
        >
          <img
            key={photo.srcset}
            className="viewer__img"
            src={list[list.length - 1]}
            srcSet={photo.srcset}
            sizes="100vw"
            width={photo.width}
            height={photo.height}
            alt={`${name}, фото ${index + 1} из ${count}`}
          />
          {count > 1 && (
            <>
              <button
                type="button"
                className="btn btn--icon viewer__btn viewer__nav viewer__nav--prev"
                onClick={() => go(-1)}
                aria-label="Предыдущее фото"
              >
                <Icon svg={iconChevronLeft} />
              </button>
              <button
                type="button"
                className="btn btn--icon viewer__btn viewer__nav viewer__nav--next"
                onClick={() => go(1)}
                aria-label="Следующее фото"
              >
                <Icon svg={iconChevronRight} />
              </button>
            </>
          )}
        </div>
        {count > 1 && (
          <ul className="viewer__thumbs" aria-label="Все фото">
            {photos.map((p, i) => (
              <li key={p.srcset}>
                <button
                  type="button"
                  className="viewer__thumb"
                  aria-current={i === index ? 'true' : undefined}
                  aria-label={`Фото ${i + 1}`}
                  onClick={() => setIndex(i)}
                >
                  <img src={urls(p.srcset)[0]} alt="" width={96} height={64} loading="lazy" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
