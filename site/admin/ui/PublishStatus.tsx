import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { call, client } from '../client.ts';
import { Icon } from './Icon.tsx';

type Phase = 'unknown' | 'upToDate' | 'publishing' | 'failed';
/**
 * error: the build's output, for whoever keeps the server; cause: a plain reason the owner can act
 * on; fallback: the site is current, but the quick build of the changed pages failed and every page
 * was built (its reason).
 */
type PublishState = { phase: Phase; error: string | null; cause: string | null; fallback?: string | null };

const PublishContext = createContext<{ state: PublishState; markChanged(): void; retry(): Promise<void> } | null>(null);

const POLL_MS = 1500;
const FAILED_POLL_MS = 10_000;
/** The worker bumps the content version just after answering a write; allow it this long. */
const VERSION_GRACE_MS = 8000;
/** The builder may still report the last build's failure for a moment after a new request. */
const FAILURE_GRACE_MS = 2500;

/**
 * Whether the public site shows the latest edits. Every write that changes public content
 * makes the worker rebuild the site; after such a write the panel asks GET /api/admin/publish
 * until the live build carries the new content version.
 */
export function PublishProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<PublishState>({ phase: 'unknown', error: null, cause: null });
  const knownVersion = useRef<number | null>(null);
  const changedAt = useRef<number | null>(null);
  const versionBefore = useRef<number | null>(null);
  const sawPending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const poll = useCallback(async () => {
    clearTimeout(timer.current);
    let next: number | null = null;
    try {
      const res = await call(client().admin.publish.$get());
      knownVersion.current = res.contentVersion;
      const since = changedAt.current === null ? Infinity : Date.now() - changedAt.current;
      if (changedAt.current !== null && !res.upToDate) sawPending.current = true;
      // «Up to date» counts only once the write's new version is seen (the worker bumps it just
      // after answering), or the site was seen behind since the write, or after a grace time.
      const caughtUp =
        res.upToDate &&
        (changedAt.current === null ||
          sawPending.current ||
          (versionBefore.current !== null && res.contentVersion > versionBefore.current) ||
          since > VERSION_GRACE_MS);
      if (caughtUp) {
        changedAt.current = null;
        setState({ phase: 'upToDate', error: null, cause: null, fallback: res.builder?.fallback ?? null });
      } else if (res.builder?.state === 'failed' && !res.upToDate && since > FAILURE_GRACE_MS) {
        setState({ phase: 'failed', error: res.builder.error ?? null, cause: res.builder.cause ?? null });
        next = FAILED_POLL_MS;
      } else {
        setState({ phase: 'publishing', error: null, cause: null });
        next = POLL_MS;
      }
    } catch {
      // Offline or signed out: try again calmly; a 401 has already returned to the login form.
      next = FAILED_POLL_MS;
    }
    if (next !== null) timer.current = setTimeout(() => void poll(), next);
  }, []);

  useEffect(() => {
    void poll();
    return () => clearTimeout(timer.current);
  }, [poll]);

  const markChanged = useCallback(() => {
    changedAt.current = Date.now();
    versionBefore.current = knownVersion.current;
    sawPending.current = false;
    setState({ phase: 'publishing', error: null, cause: null });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void poll(), 600);
  }, [poll]);

  /** «Повторить»: the server builds the same content again; the status then follows that build. */
  const retry = useCallback(async () => {
    try {
      await call(client().admin.publish.$post());
      markChanged();
    } catch (err) {
      setState({ phase: 'failed', error: null, cause: err instanceof Error ? err.message : String(err) });
    }
  }, [markChanged]);

  const value = useMemo(() => ({ state, markChanged, retry }), [state, markChanged, retry]);
  return <PublishContext.Provider value={value}>{children}</PublishContext.Provider>;
}

/** Call after every successful write that changes what visitors see. */
export function usePublish() {
  const ctx = useContext(PublishContext);
  if (!ctx) throw new Error('usePublish outside PublishProvider');
  return ctx.markChanged;
}

export function PublishStatus() {
  const ctx = useContext(PublishContext);
  if (!ctx) return null;
  const { phase, error, cause, fallback } = ctx.state;
  return (
    <div className={`publish publish--${phase}`} role="status" aria-live="polite">
      {phase === 'publishing' && (
        <>
          <span className="spinner spinner--sm" aria-hidden="true" /> <span>Публикация…</span>
        </>
      )}
      {phase === 'upToDate' && (
        <>
          <Icon name="check" /> <span>Сайт обновлён</span>
          {fallback && (
            <details className="publish__fallback">
              <summary>Собран целиком</summary>
              <p>
                Обновить только изменённые страницы не удалось, поэтому сайт собран заново целиком: это заняло больше
                времени, но все изменения на сайте. Если это повторяется, передайте эти строки тому, кто обслуживает
                сервер.
              </p>
              <pre className="publish__error">{fallback}</pre>
            </details>
          )}
        </>
      )}
      {phase === 'failed' && (
        <div className="publish__failed">
          <Icon name="x" /> <span>Сайт не обновлён</span>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void ctx.retry()}>
            Повторить
          </button>
          {cause ? (
            // A cause the owner can act on is said plainly, not hidden behind the build's output.
            <p className="publish__cause">{cause}</p>
          ) : (
            <details>
              <summary>Почему</summary>
              <p>
                Изменения сохранены, но сайт собрать не удалось: посетители пока видят прежнюю версию. Сборка повторится
                сама через несколько минут и при следующем сохранении. Если ошибка не уходит, передайте эти строки тому,
                кто обслуживает сервер.
              </p>
              {error && <pre className="publish__error">{error}</pre>}
            </details>
          )}
        </div>
      )}
    </div>
  );
}
