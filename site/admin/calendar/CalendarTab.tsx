// «Календарь» opens on «Шахматка» (every cabin against the days, Occupancy);
// beside it «Площадки» («#calendar/channels»: every cabin against Avito and the iCal
// feeds, and the conflicts between them, Channels). A cabin's name in «Шахматка» opens that
// cabin's own calendar («#calendar/3»): its busy nights with where each comes from and the
// nights the owner closes by hand (CalendarBusy), the seasons and minimum stay (CalendarSeasons),
// what each night costs (CalendarPrices), the single nights' own prices (CalendarDatePrices), the
// calendars imported from other platforms (CalendarFeeds) and the secret export address
// (CalendarExport). What the owner typed stays in the forms when a save fails.
import { useCallback, useEffect, useRef, useState } from 'react';
import { CalendarBusy } from './CalendarBusy.tsx';
import { loadCalendar, loadDatePrices, SECTION_NAMES, type DirtySection } from './CalendarCommon.tsx';
import { CalendarDatePrices } from './CalendarDatePrices.tsx';
import { CalendarExport } from './CalendarExport.tsx';
import { CalendarFeeds } from './CalendarFeeds.tsx';
import { CalendarPrices, type CabinPrices } from './CalendarPrices.tsx';
import { CalendarSeasons } from './CalendarSeasons.tsx';
import { ChannelsView } from './Channels.tsx';
import { loadConflicts, type Conflict } from './channels.ts';
import { OccupancyChart } from './Occupancy.tsx';
import { plural } from '../../../schema/format.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { tabHref, useHashDetail } from '../ui/hash.ts';
import { Icon } from '../ui/Icon.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';

const DOUBLE = ['двойное бронирование', 'двойных бронирования', 'двойных бронирований'] as const;

/** The address of «Площадки». */
export const CHANNELS_DETAIL = 'channels';
type View = 'chart' | 'channels';

export function CalendarTab() {
  const detail = useHashDetail();
  const cabinId = /^\d+$/.test(detail) ? Number(detail) : null;
  const view: View = detail === CHANNELS_DETAIL ? 'channels' : 'chart';
  return (
    <section className="tab calendar-tab">
      {cabinId === null ? <Views view={view} /> : <CabinView key="cabin" initial={cabinId} />}
    </section>
  );
}

/**
 * «Шахматка» and «Площадки», one tap apart. The conflicts are read for both: «Площадки» lists
 * them, «Шахматка» says there are some and where to read them.
 */
function Views({ view }: { view: View }) {
  const conflicts = useLoad(loadConflicts);
  const { reload } = conflicts;
  // Read again on each switch: a sync or a change elsewhere may have made or solved one.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else void reload(true);
  }, [view, reload]);
  const list: Conflict[] = conflicts.state.status === 'loaded' ? conflicts.state.data : [];
  return (
    <>
      <nav className="segmented calendar-views" aria-label="Вид календаря">
        <a className="segmented__btn" href={tabHref('calendar')} aria-current={view === 'chart' ? 'page' : undefined}>
          Шахматка
        </a>
        <a
          className="segmented__btn"
          href={tabHref('calendar', CHANNELS_DETAIL)}
          aria-current={view === 'channels' ? 'page' : undefined}
        >
          Площадки
          {list.length > 0 && (
            <span className="calendar-views__count">
              {list.length}
              <span className="visually-hidden"> {plural(list.length, DOUBLE)}</span>
            </span>
          )}
        </a>
      </nav>
      {view === 'chart' && list.length > 0 && (
        <p className="alert calendar-views__alert">
          <b>Есть двойные бронирования ({list.length})</b>: одни и те же ночи заняты дважды, на шахматке они обведены
          красным. <a href={tabHref('calendar', CHANNELS_DETAIL)}>Подробности в «Площадках»</a>
        </p>
      )}
      {view === 'channels' ? (
        <ChannelsView conflicts={list} onConflicts={(next) => conflicts.setData(() => next)} />
      ) : (
        <OccupancyChart />
      )}
    </>
  );
}

/** One cabin's calendar, with a way back to «Шахматка» and to another cabin. */
function CabinView({ initial }: { initial: number }) {
  const cabins = useLoad(() => call(client().admin.cabins.$get()));
  const [cabinId, setCabinId] = useState<number | null>(initial);
  // A link from «Шахматка» or «Назад» changes the cabin in the address.
  useEffect(() => setCabinId(initial), [initial]);
  const dirty = useRef(new Set<DirtySection>());
  const confirm = useConfirm();
  const onDirty = useCallback(
    (section: DirtySection, on: boolean) => void (on ? dirty.current.add(section) : dirty.current.delete(section)),
    [],
  );

  const list = cabins.state.status === 'loaded' ? cabins.state.data : null;
  useEffect(() => {
    if (list && !list.some((c) => c.id === cabinId)) setCabinId(list[0]?.id ?? null);
  }, [list, cabinId]);

  /** Whether unsaved rows may be dropped: asks the owner when there are some. */
  async function mayLeave(where: string) {
    if (dirty.current.size === 0) return true;
    const what = [...dirty.current].map((s) => SECTION_NAMES[s]).join(' и ');
    return confirm({
      title: where,
      text: `Есть несохранённые изменения: ${what}. Если перейти, они пропадут.`,
      confirmLabel: 'Перейти без сохранения',
      cancelLabel: 'Остаться',
      danger: true,
    });
  }

  async function choose(id: number) {
    if (!(await mayLeave('Перейти к другому домику?'))) return;
    dirty.current.clear();
    history.replaceState(null, '', tabHref('calendar', id));
    setCabinId(id);
  }

  async function back() {
    if (!(await mayLeave('Вернуться к шахматке?'))) return;
    dirty.current.clear();
    location.hash = tabHref('calendar');
  }

  if (cabins.state.status !== 'loaded') return <Unloaded state={cabins.state} onRetry={() => void cabins.reload()} />;
  if (cabins.state.data.length === 0) return <p className="empty">Сначала добавьте домик во вкладке «Домики».</p>;
  return (
    <>
      <div className="calendar-tab__head">
        <button type="button" className="btn btn--ghost calendar-tab__back" onClick={() => void back()}>
          <Icon name="chevron-left" /> Все домики
        </button>
      </div>
      <div className="field calendar-tab__cabin">
        <label className="label" htmlFor="calendar-cabin">
          Домик
        </label>
        <select
          id="calendar-cabin"
          className="input"
          value={cabinId ?? ''}
          onChange={(e) => void choose(Number(e.target.value))}
        >
          {cabins.state.data.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.active ? '' : ' (скрыт)'}
            </option>
          ))}
        </select>
      </div>
      {cabinId !== null && (
        <CabinCalendar
          key={cabinId}
          cabinId={cabinId}
          cabin={cabins.state.data.find((c) => c.id === cabinId)}
          onDirty={onDirty}
        />
      )}
    </>
  );
}

function CabinCalendar({
  cabinId,
  cabin,
  onDirty,
}: {
  cabinId: number;
  cabin?: CabinPrices;
  onDirty: (section: DirtySection, on: boolean) => void;
}) {
  // The calendar and the single nights' prices together: «Цены по дням» needs both.
  const {
    state,
    reload: load,
    setData,
  } = useLoad(() =>
    Promise.all([loadCalendar(cabinId), loadDatePrices(cabinId)]).then(([cal, dates]) => ({
      ...cal,
      datePrices: dates.prices,
    })),
  );
  // After a change the lists refresh quietly: the forms stay mounted with what the owner typed.
  const reload = useCallback(() => load(true), [load]);
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void load()} />;
  const cal = state.data;
  return (
    <>
      <CalendarBusy cabinId={cabinId} cal={cal} reload={reload} />
      {cabin && <CalendarPrices cabin={cabin} seasons={cal.seasons} datePrices={cal.datePrices} />}
      <CalendarSeasons
        cabinId={cabinId}
        cal={cal}
        onDirty={onDirty}
        onSaved={(saved) => setData((c) => ({ ...c, ...saved }))}
      />
      <CalendarDatePrices
        cabinId={cabinId}
        prices={cal.datePrices}
        onDirty={onDirty}
        onSaved={(datePrices) => setData((c) => ({ ...c, datePrices }))}
      />
      <CalendarFeeds cabinId={cabinId} cal={cal} reload={reload} onDirty={onDirty} />
      <CalendarExport
        cabinId={cabinId}
        url={cal.exportUrl}
        onRenewed={(exportUrl) => setData((c) => ({ ...c, exportUrl }))}
      />
    </>
  );
}
