import { useConfirm } from './Confirm.tsx';

/** A restored draft, said plainly at the top of a form. */
export function RestoredDraft({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p className="alert alert--info">
      Восстановлены несохранённые изменения из прошлого раза. Сохраните их или отмените.
    </p>
  );
}

/** The save row of a tab's form: the button, its busy text, and what is still unsaved. */
export function FormFooter({
  dirty,
  busy,
  label,
  busyLabel = 'Сохранение...',
  onDiscard,
}: {
  dirty: boolean;
  busy: boolean;
  label: string;
  busyLabel?: string;
  onDiscard: () => void;
}) {
  const confirm = useConfirm();
  async function discard() {
    const ok = await confirm({
      title: 'Отменить изменения?',
      text: 'Поля вернутся к сохранённым значениям, а ваши правки пропадут.',
      confirmLabel: 'Отменить изменения',
      cancelLabel: 'Оставить правки',
      danger: true,
    });
    if (ok) onDiscard();
  }
  return (
    <div className={`form-footer ${dirty ? 'form-footer--dirty' : ''}`}>
      <p className="form-footer__state" role="status">
        {dirty ? (
          <>
            <span className="dot" aria-hidden="true" /> Есть несохранённые изменения
          </>
        ) : (
          ''
        )}
      </p>
      <div className="form-footer__actions">
        {dirty && (
          <button type="button" className="btn btn--ghost" onClick={() => void discard()} disabled={busy}>
            Отменить<span className="form-footer__long"> изменения</span>
          </button>
        )}
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {busy ? busyLabel : label}
        </button>
      </div>
    </div>
  );
}
