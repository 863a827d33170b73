// «Для гостей» on a cabin in «Домики»: what the owner tells this cabin's guests once
// their stay is confirmed (check-in, where the keys are, the Wi-Fi, parking). It shows only on the
// guest's own page, never on the public site.
import { useState, type FormEvent } from 'react';
import { INSTRUCTIONS_MAX_LENGTH } from '../../../schema/instructions.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

export function CabinInstructions({ cabin, onClose }: { cabin: { id: number; name: string }; onClose: () => void }) {
  const param = { id: String(cabin.id) };
  const { state, reload } = useLoad(() => call(client().admin.cabins[':id'].instructions.$get({ param })));
  return (
    <Dialog title={`Для гостей: «${cabin.name}»`} onRequestClose={onClose} className="modal--form">
      {state.status === 'loading' ? (
        <Loading />
      ) : state.status === 'error' ? (
        <LoadError error={state.error} onRetry={() => void reload()} />
      ) : (
        <InstructionsForm cabinId={cabin.id} saved={state.data.text} onClose={onClose} />
      )}
    </Dialog>
  );
}

function InstructionsForm({ cabinId, saved, onClose }: { cabinId: number; saved: string; onClose: () => void }) {
  const [text, setText] = useState(saved);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await call(client().admin.cabins[':id'].instructions.$put({ param: { id: String(cabinId) }, json: { text } }));
      notify.success('Инструкция сохранена');
      onClose();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      setError(describeError(err, 'Не удалось сохранить инструкцию'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="cabin-form" onSubmit={submit} noValidate>
      <Field
        label="Инструкция для гостей"
        error={error}
        hint="Видна только гостю с подтверждённым бронированием, на его странице: время заезда, где ключи, Wi-Fi, парковка, как найти вход"
      >
        {(p) => (
          <textarea
            {...p}
            className="input"
            rows={8}
            maxLength={INSTRUCTIONS_MAX_LENGTH}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <p className="hint">
        {text.length} из {INSTRUCTIONS_MAX_LENGTH}
      </p>
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose} disabled={busy}>
          Отмена
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Сохранение...' : 'Сохранить'}
        </button>
      </div>
    </form>
  );
}
