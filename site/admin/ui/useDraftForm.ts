import { useCallback, useRef } from 'react';
import { useDraft, type DraftKey } from './drafts.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A form whose edits live in the draft store: the values shown are the draft if there is one,
 * else what the server holds. Editing back to the stored values drops the draft.
 */
export function useDraftForm<T extends object>(key: DraftKey, saved: T) {
  const [draft, setDraft, clearDraft] = useDraft<T>(key);
  // Whether edits from an earlier visit (or an ended session) were waiting when the form opened.
  const restored = useRef(draft !== undefined).current;
  const values: T = draft ? { ...saved, ...draft } : saved;
  const current = useRef(values);
  current.current = values;
  const savedRef = useRef(saved);
  savedRef.current = saved;

  const update = useCallback(
    (change: Partial<T> | ((v: T) => T)) => {
      const next = typeof change === 'function' ? change(current.current) : { ...current.current, ...change };
      current.current = next;
      if (same(next, savedRef.current)) clearDraft();
      else setDraft(next);
    },
    [setDraft, clearDraft],
  );

  return { values, update, dirty: draft !== undefined && !same(values, saved), discard: clearDraft, restored };
}
