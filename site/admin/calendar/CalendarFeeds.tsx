// «Импорт календарей»: the iCal addresses of Sutochno, Avito, RealtyCalendar or Google for this
// cabin, saved as one list; each with its last good sync (Moscow time), its busy periods and its
// error (one that came back empty is held until the owner accepts it); and «Синхронизировать
// сейчас». A refused save keeps every row as typed.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { moscowTime, type Calendar, type OnDirty } from './CalendarCommon.tsx';
import { useFailure } from '../ui/useFailure.ts';
import { FEED_EMPTY_HELD } from '../../../schema/calendar.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Field } from '../ui/Field.tsx';
import { FormFooter } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import { OwnerOnly, useIsOwner } from '../ui/role.tsx';
import { useNotify } from '../ui/Notice.tsx';

type Row = { key: number; name: string; url: string };
type Feed = Calendar['feeds'][number];
type SyncResult = { id: number; cabinId: number; name: string; ok: boolean; events: number; error: string | null };

const periods = (n: number) => `занятых периодов: ${n}`;

/** A feed's state in one line. */
function statusText(f: Feed): string {
  const good = f.lastSuccessAt
    ? `Последняя удачная синхронизация ${moscowTime(f.lastSuccessAt)}, ${periods(f.eventCount)}`
    : '';
  if (f.lastError) return `Ошибка: ${f.lastError}.${good ? ` ${good}.` : ' Ещё ни разу не загрузился.'}`;
  return good || 'Ещё не синхронизирован: нажмите «Синхронизировать сейчас».';
}

export function CalendarFeeds({
  cabinId,
  cal,
  reload,
  onDirty,
}: {
  cabinId: number;
  cal: Calendar;
  reload: () => Promise<void>;
  onDirty: OnDirty;
}) {
  // Where the calendars come from is a channel setting, the owner's; a manager still syncs.
  const owner = useIsOwner();
  const nextKey = useRef(0);
  const toRows = (feeds: { name: string; url: string }[]): Row[] =>
    feeds.map((f) => ({ key: nextKey.current++, name: f.name, url: f.url }));
  const [saved, setSaved] = useState(() => toRows(cal.feeds));
  const [rows, setRows] = useState(saved);
  const [busy, setBusy] = useState<'save' | 'sync' | 'accept' | null>(null);
  const [results, setResults] = useState<SyncResult[] | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const confirm = useConfirm();

  const plain = (list: Row[]) => JSON.stringify(list.map((r) => [r.name, r.url]));
  const dirty = plain(rows) !== plain(saved);
  useEffect(() => onDirty('feeds', dirty), [dirty, onDirty]);
  useEffect(() => () => onDirty('feeds', false), [onDirty]);

  const set = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  // The server keeps a feed's import and status while its address stays.
  const status = (url: string) => cal.feeds.find((f) => f.url === url.trim());

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy('save');
    try {
      const res = await call(
        client().admin.cabins[':id'].feeds.$put({
          param: { id: String(cabinId) },
          json: { feeds: rows.map(({ name, url }) => ({ name, url })) },
        }),
      );
      const next = toRows(res.feeds);
      setSaved(next);
      setRows(next);
      setResults(null);
      notify.success('Календари сохранены. Нажмите «Синхронизировать сейчас», чтобы загрузить их.');
      await reload();
    } catch (err) {
      failed(err, 'Не удалось сохранить календари');
    } finally {
      setBusy(null);
    }
  }

  async function sync() {
    setBusy('sync');
    try {
      const all = (await call(client().admin['calendar-sync'].$post())).results as SyncResult[];
      const mine = all.filter((r) => r.cabinId === cabinId);
      setResults(mine);
      const bad = mine.filter((r) => !r.ok).length;
      if (bad)
        notify.error(
          `Не загрузились календари: ${bad} из ${mine.length}. Причины указаны в разделе «Импорт календарей».`,
        );
      else notify.success(`Календари синхронизированы: ${mine.length}`);
      await reload();
    } catch (err) {
      failed(err, 'Не удалось синхронизировать календари');
    } finally {
      setBusy(null);
    }
  }

  /** The owner's «yes, it really is empty» for a feed that came back with no nights: its old ones are freed. */
  async function acceptEmpty(f: Feed) {
    const ok = await confirm({
      title: 'Принять пустой календарь?',
      text: `Календарь «${f.name}» пришёл пустым. Если на этой площадке действительно всё свободно, прежние занятые даты из него освободятся и гости смогут их забронировать.`,
      confirmLabel: 'Принять пустой календарь',
      cancelLabel: 'Оставить даты занятыми',
      danger: true,
    });
    if (!ok) return;
    setBusy('accept');
    try {
      await call(
        client().admin.feeds[':cabinId'][':index']['accept-empty'].$post({
          param: { cabinId: String(cabinId), index: String(cal.feeds.indexOf(f)) },
        }),
      );
      notify.success(`Календарь «${f.name}» принят пустым: его прежние даты свободны`);
      await reload();
    } catch (err) {
      failed(err, 'Не удалось принять пустой календарь');
    } finally {
      setBusy(null);
    }
  }

  return (
    <form className="group calendar-section" onSubmit={save} aria-labelledby="feeds-title" noValidate>
      <h3 className="group__title" id="feeds-title">
        Импорт календарей
      </h3>
      <p className="hint">
        Вставьте ссылку на календарь iCal (.ics) из Суточно, Авито, RealtyCalendar или Google Календаря: занятые там
        даты станут заняты и здесь. Календари обновляются сами каждые 5 минут.
      </p>
      {rows.length === 0 ? (
        <p className="muted">Календари других площадок не подключены.</p>
      ) : (
        <ul className="feed-list" aria-label="Календари">
          {rows.map((r, i) => {
            const s = status(r.url);
            return (
              <li key={r.key} className="feed-list__item">
                <fieldset disabled={!owner}>
                  <legend className="visually-hidden">Календарь {i + 1}</legend>
                  <div className="form-grid">
                    <Field id={`feed-${i}-name`} label="Название">
                      {({ id }) => (
                        <input
                          id={id}
                          className="input"
                          maxLength={60}
                          placeholder="Суточно"
                          value={r.name}
                          onChange={(e) => set(r.key, { name: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field id={`feed-${i}-url`} label="Ссылка на календарь">
                      {({ id }) => (
                        <input
                          id={id}
                          className="input"
                          type="url"
                          inputMode="url"
                          autoComplete="off"
                          spellCheck={false}
                          placeholder="https://…"
                          value={r.url}
                          onChange={(e) => set(r.key, { url: e.target.value })}
                        />
                      )}
                    </Field>
                  </div>
                </fieldset>
                {s && (
                  <p className={`feed-list__status ${s.lastError ? 'error-text' : 'muted'}`}>
                    {s.lastError ? <Icon name="x" /> : s.lastSuccessAt ? <Icon name="check" /> : null} {statusText(s)}
                  </p>
                )}
                {owner && s && s.lastError === FEED_EMPTY_HELD && (
                  <button
                    type="button"
                    className="btn btn--secondary feed-list__accept"
                    disabled={busy !== null}
                    onClick={() => void acceptEmpty(s)}
                  >
                    Принять пустой календарь<span className="visually-hidden"> «{s.name}»</span>
                  </button>
                )}
                {owner && (
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm calendar-remove"
                    onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                  >
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> календарь {r.name || i + 1}</span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {owner ? (
        <>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setRows((list) => [...list, { key: nextKey.current++, name: '', url: '' }])}
          >
            <Icon name="plus" /> Добавить календарь
          </button>
          <FormFooter
            dirty={dirty}
            busy={busy === 'save'}
            label="Сохранить календари"
            onDiscard={() => setRows(saved)}
          />
        </>
      ) : (
        <OwnerOnly what="подключать календари площадок" />
      )}
      <div className="calendar-sync">
        <button
          type="button"
          className="btn btn--secondary"
          disabled={busy !== null || dirty || saved.length === 0}
          aria-busy={busy === 'sync'}
          onClick={() => void sync()}
        >
          <Icon name="refresh" /> {busy === 'sync' ? 'Синхронизация…' : 'Синхронизировать сейчас'}
        </button>
        {dirty && saved.length + rows.length > 0 && (
          <p className="hint">Сначала сохраните календари, потом синхронизируйте.</p>
        )}
        {results && results.length > 0 && (
          <ul className="sync-results" aria-label="Итог синхронизации">
            {results.map((r) => (
              <li key={r.id} className={r.ok ? 'sync-results__ok' : 'error-text'}>
                <Icon name={r.ok ? 'check' : 'x'} /> {r.name}: {r.ok ? `загружен, ${periods(r.events)}` : r.error}
              </li>
            ))}
          </ul>
        )}
      </div>
    </form>
  );
}
