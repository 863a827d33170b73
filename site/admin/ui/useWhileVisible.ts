import { useEffect, useRef } from 'react';

/**
 * Calls `look` every `everyMs` while the page is in view, and once at once when it comes back
 * into view: an open panel stays current, and one left in a background tab sends nothing.
 */
export function useWhileVisible(look: () => void, everyMs: number) {
  const latest = useRef(look);
  latest.current = look;
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      timer = setInterval(() => latest.current(), everyMs);
    };
    const onVisibility = () => {
      if (document.hidden) return clearInterval(timer);
      latest.current();
      start();
    };
    if (!document.hidden) start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [everyMs]);
}
