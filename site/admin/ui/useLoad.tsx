import { useCallback, useEffect, useRef, useState } from 'react';
import { SessionEndedError } from '../client.ts';

export type Load<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'error'; data?: undefined; error: string }
  | { status: 'loaded'; data: T; error?: undefined };

/** A list or form's loading, error and loaded states, with a reload. */
export function useLoad<T>(load: () => Promise<T>) {
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  const loader = useRef(load);
  loader.current = load;
  const alive = useRef(true);

  const reload = useCallback(async (quiet = false) => {
    if (!quiet) setState({ status: 'loading' });
    try {
      const data = await loader.current();
      if (alive.current) setState({ status: 'loaded', data });
    } catch (err) {
      if (err instanceof SessionEndedError || !alive.current) return;
      if (!quiet) setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    void reload();
    return () => {
      alive.current = false;
    };
  }, [reload]);

  const setData = useCallback((update: (data: T) => T) => {
    setState((s) => (s.status === 'loaded' ? { status: 'loaded', data: update(s.data) } : s));
  }, []);

  return { state, reload, setData };
}

/** What a list or form shows until it has loaded: the spinner, or the error with a retry. */
export function Unloaded({ state, onRetry }: { state: Load<unknown>; onRetry: () => void }) {
  return state.status === 'error' ? <LoadError error={state.error} onRetry={onRetry} /> : <Loading />;
}

export function Loading() {
  return (
    <div className="tab-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Загрузка…</span>
    </div>
  );
}

export function LoadError({ error, onRetry }: { error: string; onRetry: () => void }) {
  return (
    <div className="alert load-error" role="alert">
      <p>Ошибка загрузки: {error}</p>
      <button type="button" className="btn btn--secondary btn--sm" onClick={onRetry}>
        Попробовать снова
      </button>
    </div>
  );
}
