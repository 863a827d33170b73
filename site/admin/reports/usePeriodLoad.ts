import { useLayoutEffect, useRef } from 'react';
import { useLoad } from '../ui/useLoad.tsx';
import type { Period } from './period.ts';

/**
 * A report of «Сводка» for the period shown: loaded once on opening, again each time the owner
 * picks another period (not twice on opening). The reload starts before the browser paints, so
 * the last period's figures never show under the new period's name.
 */
export function usePeriodLoad<T>(period: Period, load: (p: Period) => Promise<T>) {
  const loaded = useLoad(() => load(period));
  const { reload } = loaded;
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) first.current = false;
    else void reload();
  }, [period, reload]);
  return loaded;
}
