// «Журнал» (the owner's): every change made in the panel, every sign-in and every refusal,
// newest first; filtered by person, part of the panel and days, 50 at a time («Показать ещё» asks
// for the entries before the oldest shown). Read only: nothing here edits or deletes an entry.
import { useCallback, useEffect, useRef, useState } from 'react';
import { AUDIT_KINDS, AUDIT_PAGE, type AuditEntry, type AuditKind, type UserView } from '../../../schema/account.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { LoadError, Loading } from '../ui/useLoad.tsx';
import { moscowMoment } from '../account/device.ts';
import { changesOf, fieldLabel, targetText } from './changes.ts';

type Filters = { actor: string; kind: '' | AuditKind; from: string; to: string };
const NO_FILTERS: Filters = { actor: '', kind: '', from: '', to: '' };

type List =
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | { status: 'loaded'; entries: AuditEntry[]; more: boolean };

const OUTCOMES = { denied: 'Отказано', failed: 'Не удалось' } as const;

function query(f: Filters, before?: number) {
  return {
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    ...(before ? { before: String(before) } : {}),
    limit: String(AUDIT_PAGE.default),
  };
}

export function AuditTab() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [list, setList] = useState<List>({ status: 'loading' });
  const [people, setPeople] = useState<UserView[]>([]);
  const [more, setMore] = useState<'idle' | 'busy' | string>('idle');
  // Answers to an older filter that arrive late are dropped.
  const asked = useRef(0);

  useEffect(() => {
    call(client().admin.users.$get())
      .then(setPeople)
      .catch(() => {});
  }, []);

  const load = useCallback(async (f: Filters) => {
    const n = ++asked.current;
    setList({ status: 'loading' });
    try {
      const entries = await call(client().admin.audit.$get({ query: query(f) }));
      if (n === asked.current) setList({ status: 'loaded', entries, more: entries.length === AUDIT_PAGE.default });
    } catch (err) {
      if (err instanceof SessionEndedError || n !== asked.current) return;
      setList({ status: 'error', error: err instanceof Error ? err.message : String(err) });
    }
  }, []);

  useEffect(() => void load(filters), [filters, load]);

  async function showMore() {
    if (list.status !== 'loaded') return;
    const n = asked.current;
    setMore('busy');
    try {
      const older = await call(client().admin.audit.$get({ query: query(filters, list.entries.at(-1)?.id) }));
      if (n !== asked.current) return;
      setList({ status: 'loaded', entries: [...list.entries, ...older], more: older.length === AUDIT_PAGE.default });
      setMore('idle');
    } catch (err) {
      if (!(err instanceof SessionEndedError)) setMore(describeError(err, 'Не удалось загрузить записи'));
    }
  }

  const set = (change: Partial<Filters>) => setFilters((f) => ({ ...f, ...change }));
  // People removed since keep their entries: whoever the shown entries name can be picked too.
  const actors = [
    ...new Set(
      [
        ...people.map((p) => p.username),
        ...(list.status === 'loaded' ? list.entries.map((e) => e.actor) : []),
        filters.actor,
      ].filter(Boolean),
    ),
  ];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="tab audit">
      <form className="group audit__filters" aria-label="Фильтры журнала" onSubmit={(e) => e.preventDefault()}>
        <div className="form-grid">
          <Field label="Кто">
            {(p) => (
              <select {...p} className="input" value={filters.actor} onChange={(e) => set({ actor: e.target.value })}>
                <option value="">Все</option>
                {actors.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Раздел">
            {(p) => (
              <select
                {...p}
                className="input"
                value={filters.kind}
                onChange={(e) => set({ kind: e.target.value as Filters['kind'] })}
              >
                <option value="">Все разделы</option>
                {(Object.entries(AUDIT_KINDS) as [AuditKind, string][]).map(([k, label]) => (
                  <option key={k} value={k}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="С даты">
            {(p) => (
              <input
                {...p}
                className="input"
                type="date"
                value={filters.from}
                max={filters.to || undefined}
                onChange={(e) => set({ from: e.target.value })}
              />
            )}
          </Field>
          <Field label="По дату">
            {(p) => (
              <input
                {...p}
                className="input"
                type="date"
                value={filters.to}
                min={filters.from || undefined}
                onChange={(e) => set({ to: e.target.value })}
              />
            )}
          </Field>
        </div>
        {filtered && (
          <button type="button" className="btn btn--ghost audit__reset" onClick={() => setFilters(NO_FILTERS)}>
            Сбросить фильтры
          </button>
        )}
      </form>

      {list.status === 'loading' && <Loading />}
      {list.status === 'error' && <LoadError error={list.error} onRetry={() => void load(filters)} />}
      {list.status === 'loaded' &&
        (list.entries.length === 0 ? (
          <p className="empty">{filtered ? 'Нет записей с такими фильтрами.' : 'Записей пока нет.'}</p>
        ) : (
          <>
            <ol className="audit-list" aria-label="Записи журнала, новые сверху">
              {list.entries.map((e) => (
                <AuditRow key={e.id} entry={e} />
              ))}
            </ol>
            {list.more && (
              <div className="audit__more">
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => void showMore()}
                  disabled={more === 'busy'}
                  aria-busy={more === 'busy'}
                >
                  {more === 'busy' ? 'Загрузка…' : 'Показать ещё'}
                </button>
                {more !== 'idle' && more !== 'busy' && (
                  <p className="error-text" role="alert">
                    {more}
                  </p>
                )}
              </div>
            )}
          </>
        ))}
    </div>
  );
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const changes = changesOf(e);
  const target = targetText(e);
  const outcome = e.outcome === 'ok' ? null : OUTCOMES[e.outcome];
  return (
    <li className={`audit-entry audit-entry--${e.outcome}`}>
      <article>
        <p className="audit-entry__what">
          {outcome && <span className="badge audit-entry__outcome">{outcome}</span>} {e.description || e.action}
          {target && <span className="audit-entry__target"> · {target}</span>}
        </p>
        <p className="audit-entry__meta">
          <time dateTime={new Date(e.at).toISOString()}>{moscowMoment(e.at)}</time> · <b>{e.actor}</b> ·{' '}
          {e.ip || 'адрес неизвестен'} · {AUDIT_KINDS[e.kind] ?? e.kind}
        </p>
        {changes.length > 0 && (
          <details className="audit-entry__changes">
            <summary>
              {e.before !== undefined ? 'Что изменилось' : 'Что отправлено'}
              <span className="visually-hidden">: {e.description}</span>
            </summary>
            <dl>
              {changes.map((c) => (
                <div key={c.field}>
                  {c.field && <dt>{fieldLabel(c.field)}</dt>}
                  <dd>
                    {c.before !== undefined && <del>{c.before}</del>}
                    {c.before !== undefined && c.after !== undefined && ' → '}
                    {c.after !== undefined && <ins>{c.after}</ins>}
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </article>
    </li>
  );
}
