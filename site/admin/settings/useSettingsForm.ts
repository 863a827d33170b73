import { useRef, useState, type FormEvent } from 'react';
import type { $ZodError } from 'zod/v4/core';
import type { Settings, SettingsUpdate } from '../../../schema/settings.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import type { DraftKey } from '../ui/drafts.ts';
import { fieldErrors, focusFirstInvalid, type FieldErrors } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { usePublish } from '../ui/PublishStatus.tsx';
import { useDraftForm } from '../ui/useDraftForm.ts';

type Checked<D> = { success: true; data: D } | { success: false; error: $ZodError };

/**
 * What the «Контакты» and «Настройки» tabs share: a draft of their part of the settings, its
 * field errors, and a save that checks the values with the shared schema, sends
 * PUT /api/settings and tells the owner how it went (the panel's messages).
 */
export function useSettingsForm<T extends object, D>(opts: {
  draft: DraftKey;
  saved: T;
  onSaved: (saved: T) => void;
  /** The tab's fields out of the saved settings the server answers with. */
  pick: (settings: Settings) => T;
  /** The shared schema's verdict on the values, and the body to send for them. */
  check: (values: T) => Checked<D>;
  payload: (data: D) => SettingsUpdate;
  /** The field a refusal of the server's is about (its message), to show it there and not only in a notice. */
  errorField?: (message: string) => string | undefined;
  messages: { saved: string; failed: string };
}) {
  const draft = useDraftForm(opts.draft, opts.saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const notify = useNotify();
  const published = usePublish();

  const clearError = (key: string) => {
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = opts.check(draft.values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await call(client().settings.$put({ json: opts.payload(parsed.data) }));
      draft.discard();
      opts.onSaved(opts.pick(res));
      published();
      notify.success(opts.messages.saved);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      const field = err instanceof ApiError && err.status === 400 ? opts.errorField?.(err.message) : undefined;
      if (field) {
        setErrors({ [field]: (err as ApiError).message });
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      }
      console.error(err);
      notify.error(describeError(err, opts.messages.failed));
    } finally {
      setBusy(false);
    }
  }

  return { ...draft, errors, clearError, busy, formRef, submit };
}
