import { useEffect } from 'react';
import { READY } from './wake.ts';

/** In an island that wakes on interaction (wake.ts): announce that its handlers are attached. */
export function useIslandReady(name: string) {
  useEffect(() => {
    document.documentElement.setAttribute(`data-${name}-ready`, '');
    document.dispatchEvent(new CustomEvent(READY, { detail: name }));
  }, [name]);
}
