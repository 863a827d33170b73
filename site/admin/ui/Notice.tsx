import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { iconCheck, iconClose, iconRefresh, iconX } from '../../components/icons-base.ts';
import { Icon as SvgIcon } from '../../islands/Icon.tsx';

type Kind = 'success' | 'error' | 'info';
type Item = { id: number; kind: Kind; text: string };
type Notify = { success(text: string): void; error(text: string): void; info(text: string): void };

const NoticeContext = createContext<Notify | null>(null);

/** How long a success or info message stays; errors stay until closed. */
const CALM_MS = 6000;

/**
 * The panel's messages in two live regions: successes are announced
 * politely, errors assertively. Both regions exist from the start so screen readers notice.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Item[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);
  const push = useCallback(
    (kind: Kind, text: string) => {
      const id = next.current++;
      // One copy of a message at a time: a second save shows it fresh, not twice.
      setItems((list) => [...list.filter((i) => i.text !== text), { id, kind, text }].slice(-4));
      if (kind !== 'error') setTimeout(() => dismiss(id), CALM_MS);
    },
    [dismiss],
  );
  const notify = useMemo<Notify>(
    () => ({
      success: (t) => push('success', t),
      error: (t) => push('error', t),
      info: (t) => push('info', t),
    }),
    [push],
  );

  const list = (kinds: Kind[]) =>
    items
      .filter((i) => kinds.includes(i.kind))
      .map((i) => (
        <div key={i.id} className={`notice notice--${i.kind}`}>
          <SvgIcon svg={i.kind === 'error' ? iconX : i.kind === 'success' ? iconCheck : iconRefresh} />
          <p className="notice__text">{i.text}</p>
          <button type="button" className="btn btn--ghost btn--icon notice__close" onClick={() => dismiss(i.id)}>
            <SvgIcon svg={iconClose} label="Закрыть сообщение" />
          </button>
        </div>
      ));

  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices">
        <div role="alert" aria-live="assertive" className="notices__region">
          {list(['error'])}
        </div>
        <div role="status" aria-live="polite" className="notices__region">
          {list(['success', 'info'])}
        </div>
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotify(): Notify {
  const ctx = useContext(NoticeContext);
  if (!ctx) throw new Error('useNotify outside NoticeProvider');
  return ctx;
}
