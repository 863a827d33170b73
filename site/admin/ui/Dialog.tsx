import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

type DialogProps = {
  title: string;
  children: ReactNode;
  /** Escape and the close button ask for this; the dialog decides nothing by itself. */
  onRequestClose: () => void;
  className?: string;
  /** role="alertdialog" for confirmations. */
  alert?: boolean;
  describedBy?: string;
};

/**
 * A modal on the native <dialog>: focus is trapped and returned by the browser, the page
 * behind is inert. A click on the backdrop does nothing, so no edit is ever dropped by a
 * stray tap; Escape goes through onRequestClose, which may ask first.
 */
export function Dialog({ title, children, onRequestClose, className, alert, describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onRequestClose);
  close.current = onRequestClose;

  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    // showModal focuses the first control (the close button); a form may name a better one.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    document.body.classList.add('has-modal');
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      if (!document.querySelector('dialog[open]')) document.body.classList.remove('has-modal');
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      role={alert ? 'alertdialog' : undefined}
    >
      <h2 id={titleId} className="modal__title">
        {title}
      </h2>
      <button type="button" className="btn btn--ghost btn--icon modal__close" onClick={() => close.current()}>
        <Icon name="close" label="Закрыть" />
      </button>
      {children}
    </dialog>
  );
}
