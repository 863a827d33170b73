// «Календарь» (issue 10, points 2–5): one cabin at a time, its busy nights with where each comes
// from, the nights the owner closes by hand, the seasons and minimum stay, the calendars imported
// from Sutochno, Avito or RealtyCalendar with their last sync, and the secret export address.
// What the owner typed stays in the forms when a save fails.
import { useEffect, useState, type FormEvent } from 'react';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { formatNights, formatPrice } from '../lib/format.ts';
import { stayDates } from './BookingsTab.tsx';
import { call, client, describeError, SessionEndedError } from './client.ts';
import { useConfirm } from './Confirm.tsx';
import { Icon } from './Icon.tsx';
import { useNotify } from './Notice.tsx';
import { usePublish } from './PublishStatus.tsx';
import { LoadError, Loading, useLoad } from './useLoad.tsx';

type Calendar = Awaited<ReturnType<typeof loadCalendar>>;
const loadCalendar = (id: number) => call(client().admin.cabins[':id'].calendar.$get({ param: { id: String(id) } }));

const synced = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' });
const nightsOf = (start: string, end: string) => Math.round((Date.parse(`${end}T12:00:00Z`) - Date.parse(`${start}T12:00:00Z`)) / 86_400_000);

/** Tells the owner what went wrong; false when the session ended (the panel handles it). */
function useFailure() {
  const notify = useNotify();
  return (err: unknown, what: string) => {
    if (err instanceof SessionEndedError) return;
    notify.error(describeError(err, what));
  };
}

export function CalendarTab() {
  const cabins = useLoad(() => call(client().admin.cabins.$get()));
  const [cabinId, setCabinId] = useState<number | null>(null);
  useEffect(() => {
    if (cabinId === null && cabins.state.status === 'loaded' && cabins.state.data[0]) setCabinId(cabins.state.data[0].id);
  }, [cabins.state, cabinId]);

  if (cabins.state.status === 'loading') return <Loading />;
  if (cabins.state.status === 'error') return <LoadError error={cabins.state.error} onRetry={() => void cabins.reload()} />;
  if (cabins.state.data.length === 0) return <p className="empty">Сначала добавьте домик во вкладке «Домики».</p>;
  return (
    <section className="tab calendar-tab">
      <div className="field">
        <label className="label" htmlFor="calendar-cabin">Домик</label>
        <select id="calendar-cabin" className="input" value={cabinId ?? ''} onChange={(e) => setCabinId(Number(e.target.value))}>
          {cabins.state.data.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.active ? '' : ' (скрыт)'}
            </option>
          ))}
        </select>
      </div>
      {cabinId !== null && <CabinCalendar key={cabinId} cabinId={cabinId} />}
    </section>
  );
}

function CabinCalendar({ cabinId }: { cabinId: number }) {
  const { state, reload: load, setData } = useLoad(() => loadCalendar(cabinId));
  // After a save the forms stay as they are (they hold what was saved); the lists refresh quietly.
  const reload = () => load(true);
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void load()} />;
  const cal = state.data;
  return (
    <>
      <BusyNights cabinId={cabinId} cal={cal} reload={reload} />
      <Seasons cabinId={cabinId} cal={cal} onSaved={(seasons, minNights) => setData((c) => ({ ...c, seasons, minNights }))} />
      <Feeds cabinId={cabinId} cal={cal} reload={reload} />
      <Export cabinId={cabinId} url={cal.exportUrl} onRenewed={(exportUrl) => setData((c) => ({ ...c, exportUrl }))} />
    </>
  );
}

function BusyNights({ cabinId, cal, reload }: { cabinId: number; cal: Calendar; reload: () => Promise<void> }) {
  const today = todayInMoscow();
  const [block, setBlock] = useState({ start: '', end: '', note: '' });
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const failed = useFailure();
  const confirm = useConfirm();

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await call(client().admin.cabins[':id'].blocks.$post({ param: { id: String(cabinId) }, json: block }));
      notify.success(`Даты ${stayDates(block.start, block.end)} закрыты`);
      setBlock({ start: '', end: '', note: '' });
      await reload();
    } catch (err) {
      failed(err, 'Не удалось закрыть даты');
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: number, start: string, end: string) {
    if (!(await confirm({ title: 'Открыть даты?', text: `Даты ${stayDates(start, end)} снова станут свободными для бронирования.`, confirmLabel: 'Открыть даты' }))) return;
    try {
      await call(client().admin.blocks[':id'].$delete({ param: { id: String(id) } }));
      notify.success(`Даты ${stayDates(start, end)} снова свободны`);
      await reload();
    } catch (err) {
      failed(err, 'Не удалось открыть даты');
    }
  }

  const source = (r: Calendar['busy'][number]) =>
    r.source === 'booking' ? `Бронирование${r.label ? `: ${r.label}` : ''}` : r.source === 'block' ? `Закрыто вручную${r.label ? `: ${r.label}` : ''}` : `Из календаря «${r.label}»`;

  return (
    <section className="group" aria-labelledby="busy-title">
      <h3 className="group__title" id="busy-title">Занятые даты</h3>
      {cal.busy.length === 0 ? (
        <p className="muted">В ближайшие 12 месяцев все ночи свободны.</p>
      ) : (
        <ul className="busy-list" aria-label="Занятые даты">
          {cal.busy.map((r) => (
            <li key={`${r.source}-${r.id}`} className={`busy-list__item busy-list__item--${r.source}`}>
              <div>
                <p className="busy-list__dates">
                  {stayDates(r.start, r.end)} · {formatNights(nightsOf(r.start, r.end))}
                </p>
                <p className="busy-list__source">{source(r)}</p>
              </div>
              {r.source === 'block' && (
                <button type="button" className="btn btn--secondary btn--sm" onClick={() => void remove(r.id, r.start, r.end)}>
                  Открыть<span className="visually-hidden"> даты {stayDates(r.start, r.end)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="calendar-form" onSubmit={add} aria-label="Закрыть даты">
        <p className="hint">Забронировали по телефону или ремонт? Закройте эти ночи: выезд — в день, когда ночь уже свободна.</p>
        <div className="form-grid">
          <div className="field">
            <label className="label" htmlFor="block-start">Заезд (первая ночь)</label>
            <input id="block-start" className="input" type="date" min={today} required value={block.start} onChange={(e) => setBlock((b) => ({ ...b, start: e.target.value, end: b.end && b.end > e.target.value ? b.end : e.target.value ? addDays(e.target.value, 1) : '' }))} />
          </div>
          <div className="field">
            <label className="label" htmlFor="block-end">Выезд</label>
            <input id="block-end" className="input" type="date" min={block.start ? addDays(block.start, 1) : today} required value={block.end} onChange={(e) => setBlock((b) => ({ ...b, end: e.target.value }))} />
          </div>
          <div className="field">
            <label className="label" htmlFor="block-note">Заметка (видите только вы)</label>
            <input id="block-note" className="input" maxLength={200} value={block.note} onChange={(e) => setBlock((b) => ({ ...b, note: e.target.value }))} />
          </div>
        </div>
        <button type="submit" className="btn btn--primary" disabled={busy || !block.start || !block.end}>
          <Icon name="calendar" /> Закрыть даты
        </button>
      </form>
    </section>
  );
}

type SeasonRow = { start: string; end: string; pricePerNight: string; minNights: string };

function Seasons({ cabinId, cal, onSaved }: { cabinId: number; cal: Calendar; onSaved: (seasons: Calendar['seasons'], minNights: number) => void }) {
  const [rows, setRows] = useState<SeasonRow[]>(() => cal.seasons.map((s) => ({ start: s.start, end: s.end, pricePerNight: String(s.pricePerNight), minNights: String(s.minNights) })));
  const [minNights, setMinNights] = useState(String(cal.minNights));
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const failed = useFailure();
  const published = usePublish();
  const set = (i: number, patch: Partial<SeasonRow>) => setRows((list) => list.map((r, n) => (n === i ? { ...r, ...patch } : r)));

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const seasons = rows.map((r) => ({ start: r.start, end: r.end, pricePerNight: Number(r.pricePerNight), minNights: Number(r.minNights || 1) }));
      const saved = await call(client().admin.cabins[':id'].seasons.$put({ param: { id: String(cabinId) }, json: { seasons, minNights: Number(minNights) } }));
      onSaved(saved.seasons, saved.minNights);
      published();
      notify.success('Сезонные цены сохранены! Сайт обновится через минуту.');
    } catch (err) {
      failed(err, 'Не удалось сохранить сезоны');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="group" onSubmit={save} aria-labelledby="seasons-title" noValidate>
      <h3 className="group__title" id="seasons-title">Сезонные цены и минимальный срок</h3>
      <div className="field">
        <label className="label" htmlFor="base-min">Минимум ночей вне сезонов</label>
        <input id="base-min" className="input input--narrow" type="number" inputMode="numeric" min={1} max={365} value={minNights} onChange={(e) => setMinNights(e.target.value)} />
      </div>
      <p className="hint">В сезон каждая ночь стоит цену сезона; вне сезонов — цену домика. Сезоны не должны пересекаться.</p>
      <ul className="season-list" aria-label="Сезоны">
        {rows.map((r, i) => (
          <li key={i} className="season-list__item">
            <fieldset className="form-grid">
              <legend className="visually-hidden">Сезон {i + 1}</legend>
              <div className="field">
                <label className="label" htmlFor={`season-${i}-start`}>С</label>
                <input id={`season-${i}-start`} className="input" type="date" value={r.start} onChange={(e) => set(i, { start: e.target.value })} />
              </div>
              <div className="field">
                <label className="label" htmlFor={`season-${i}-end`}>По (день выезда)</label>
                <input id={`season-${i}-end`} className="input" type="date" value={r.end} onChange={(e) => set(i, { end: e.target.value })} />
              </div>
              <div className="field">
                <label className="label" htmlFor={`season-${i}-price`}>Цена за ночь, ₽</label>
                <input id={`season-${i}-price`} className="input" type="number" inputMode="numeric" min={0} value={r.pricePerNight} onChange={(e) => set(i, { pricePerNight: e.target.value })} />
              </div>
              <div className="field">
                <label className="label" htmlFor={`season-${i}-min`}>Минимум ночей</label>
                <input id={`season-${i}-min`} className="input" type="number" inputMode="numeric" min={1} value={r.minNights} onChange={(e) => set(i, { minNights: e.target.value })} />
              </div>
            </fieldset>
            <p className="season-list__sum muted">{r.pricePerNight && Number(r.pricePerNight) >= 0 ? `${formatPrice(Number(r.pricePerNight))} за ночь` : ''}</p>
            <button type="button" className="btn btn--danger btn--sm" onClick={() => setRows((list) => list.filter((_, n) => n !== i))}>
              <Icon name="trash" /> Удалить<span className="visually-hidden"> сезон {i + 1}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="calendar-actions">
        <button type="button" className="btn btn--secondary" onClick={() => setRows((list) => [...list, { start: '', end: '', pricePerNight: '', minNights: '1' }])}>
          <Icon name="plus" /> Добавить сезон
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Сохранить сезоны
        </button>
      </div>
    </form>
  );
}

type FeedRow = { name: string; url: string };

function Feeds({ cabinId, cal, reload }: { cabinId: number; cal: Calendar; reload: () => Promise<void> }) {
  const [rows, setRows] = useState<FeedRow[]>(() => cal.feeds.map((f) => ({ name: f.name, url: f.url })));
  const [busy, setBusy] = useState<'save' | 'sync' | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const set = (i: number, patch: Partial<FeedRow>) => setRows((list) => list.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  const status = (url: string) => cal.feeds.find((f) => f.url === url.trim());

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy('save');
    try {
      await call(client().admin.cabins[':id'].feeds.$put({ param: { id: String(cabinId) }, json: { feeds: rows } }));
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
      const { results } = await call(client().admin['calendar-sync'].$post());
      const bad = results.filter((r) => !r.ok).length;
      if (bad) notify.error(`Синхронизация: ${bad} из ${results.length} календарей не загрузились, ошибки указаны ниже`);
      else notify.success(`Синхронизировано календарей: ${results.length}`);
      await reload();
    } catch (err) {
      failed(err, 'Не удалось синхронизировать календари');
    } finally {
      setBusy(null);
    }
  }

  return (
    <form className="group" onSubmit={save} aria-labelledby="feeds-title" noValidate>
      <h3 className="group__title" id="feeds-title">Импорт календарей</h3>
      <p className="hint">Вставьте ссылку на календарь iCal из Суточно, Авито, RealtyCalendar или Google: занятые там даты станут заняты и здесь. Обновляется каждые 15 минут.</p>
      <ul className="feed-list" aria-label="Календари">
        {rows.map((r, i) => {
          const s = status(r.url);
          return (
            <li key={i} className="feed-list__item">
              <div className="form-grid">
                <div className="field">
                  <label className="label" htmlFor={`feed-${i}-name`}>Название</label>
                  <input id={`feed-${i}-name`} className="input" maxLength={60} placeholder="Суточно" value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
                </div>
                <div className="field">
                  <label className="label" htmlFor={`feed-${i}-url`}>Ссылка на календарь</label>
                  <input id={`feed-${i}-url`} className="input" type="url" inputMode="url" placeholder="https://…" value={r.url} onChange={(e) => set(i, { url: e.target.value })} />
                </div>
              </div>
              {s && (
                <p className={`feed-list__status ${s.lastError ? 'error-text' : 'muted'}`} role={s.lastError ? 'alert' : undefined}>
                  {s.lastError
                    ? `Ошибка: ${s.lastError}${s.lastSuccessAt ? `. Последняя удачная загрузка ${synced.format(new Date(s.lastSuccessAt))}, занятых периодов: ${s.eventCount}` : ''}`
                    : s.lastSuccessAt
                      ? `Загружен ${synced.format(new Date(s.lastSuccessAt))}, занятых периодов: ${s.eventCount}`
                      : 'Ещё не загружался'}
                </p>
              )}
              <button type="button" className="btn btn--danger btn--sm" onClick={() => setRows((list) => list.filter((_, n) => n !== i))}>
                <Icon name="trash" /> Удалить<span className="visually-hidden"> календарь {r.name}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="calendar-actions">
        <button type="button" className="btn btn--secondary" onClick={() => setRows((list) => [...list, { name: '', url: '' }])}>
          <Icon name="plus" /> Добавить календарь
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy !== null}>
          Сохранить календари
        </button>
        <button type="button" className="btn btn--secondary" disabled={busy !== null || cal.feeds.length === 0} onClick={() => void sync()}>
          <Icon name="refresh" /> {busy === 'sync' ? 'Синхронизация…' : 'Синхронизировать сейчас'}
        </button>
      </div>
    </form>
  );
}

function Export({ cabinId, url, onRenewed }: { cabinId: number; url: string; onRenewed: (url: string) => void }) {
  const notify = useNotify();
  const failed = useFailure();
  const confirm = useConfirm();

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      notify.success('Адрес календаря скопирован');
    } catch {
      // No clipboard (an old browser, no permission): select the address to copy by hand.
      const input = document.getElementById('export-url') as HTMLInputElement | null;
      input?.select();
      notify.info('Адрес выделен: скопируйте его');
    }
  }

  async function renew() {
    const ok = await confirm({
      title: 'Выдать новый адрес?',
      text: 'Старый адрес перестанет работать: вставьте новый в Суточно, Авито и другие площадки, иначе они не увидят занятые даты.',
      confirmLabel: 'Выдать новый адрес',
      danger: true,
    });
    if (!ok) return;
    try {
      const { exportUrl } = await call(client().admin.cabins[':id']['ical-token'].$post({ param: { id: String(cabinId) } }));
      onRenewed(exportUrl);
      notify.success('Новый адрес календаря готов');
    } catch (err) {
      failed(err, 'Не удалось выдать новый адрес');
    }
  }

  return (
    <section className="group" aria-labelledby="export-title">
      <h3 className="group__title" id="export-title">Экспорт календаря</h3>
      <p className="hint">Вставьте этот адрес в Суточно, Авито, RealtyCalendar или Google Календарь: там будут видны ваши бронирования и закрытые даты (без имён гостей).</p>
      <div className="field">
        <label className="label" htmlFor="export-url">Адрес календаря (iCal)</label>
        <input id="export-url" className="input input--code" readOnly value={url} onFocus={(e) => e.target.select()} />
      </div>
      <div className="calendar-actions">
        <button type="button" className="btn btn--primary" onClick={() => void copy()}>
          Скопировать
        </button>
        <button type="button" className="btn btn--secondary" onClick={() => void renew()}>
          Новый адрес
        </button>
      </div>
    </section>
  );
}
