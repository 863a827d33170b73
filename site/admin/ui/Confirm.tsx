import { createContext, useCallback, useContext, useId, useRef, useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

export type ConfirmOptions = {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
};

type Ask = (opts: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Ask | null>(null);

/** Confirmations as an accessible alert dialog (never window.confirm); focus starts on the safe choice. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const textId = useId();

  const ask = useCallback<Ask>((opts) => {
    resolver.current?.(false);
    setOpen(opts);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOpen(null);
  };

  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      {open && (
        <Dialog
          title={open.title}
          onRequestClose={() => answer(false)}
          alert
          describedBy={textId}
          className="modal--confirm"
        >
          <p id={textId}>{open.text}</p>
          <div className="modal__actions">
            <button type="button" className="btn btn--secondary" data-autofocus onClick={() => answer(false)}>
              {open.cancelLabel ?? 'Отмена'}
            </button>
            <button
              type="button"
              className={`btn ${open.danger ? 'btn--danger-solid' : 'btn--primary'}`}
              onClick={() => answer(true)}
            >
              {open.confirmLabel}
            </button>
          </div>
        </Dialog>
      )}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Ask {
  const ctx = useContext(ConfirmContext);
  if (!ctx) throw new Error('useConfirm outside ConfirmProvider');
  return ctx;
}
