import { useRef, useState, type FormEvent } from 'react';
import { describeError, SessionEndedError } from '../client.ts';
import type { DraftKey } from '../ui/drafts.ts';
import { useNotify } from '../ui/Notice.tsx';
import { useDraftForm } from '../ui/useDraftForm.ts';

/**
 * What the forms of «Цены и скидки» share: the rows live in the draft store (nothing typed is
 * lost to a closed page or an ended session), a save sends the whole list, and a refusal is told
 * in the server's words beside the form (and in a notice) while every row stays as typed.
 */
export function useListForm<T extends object>(opts: {
  draft: DraftKey;
  saved: T;
  /** Sends the values and keeps what the server answers; resolves once the form's `saved` is that. */
  save: (values: T) => Promise<unknown>;
  messages: { saved: string; failed: string };
}) {
  const draft = useDraftForm(opts.draft, opts.saved);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const notify = useNotify();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setRefused(null);
    try {
      await opts.save(draft.values);
      draft.discard();
      notify.success(opts.messages.saved);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      const text = describeError(err, opts.messages.failed);
      setRefused(text);
      notify.error(text);
    } finally {
      setBusy(false);
    }
  }

  function discard() {
    draft.discard();
    setRefused(null);
  }

  return { ...draft, discard, busy, refused, formRef, submit };
}

/** A number field's text as the API takes it: empty is null (no limit, not set), anything else a number the server checks. */
export const numberOrNull = (text: string): number | null =>
  text.trim() === '' ? null : Number(text.replace(/[\s\u00a0]/g, ''));

/** A date field's text as the API takes it: empty is null. */
export const dateOrNull = (text: string): string | null => (text === '' ? null : text);

/** A number as its field shows it: empty for null. */
export const shown = (n: number | null | undefined): string => (n == null ? '' : String(n));
