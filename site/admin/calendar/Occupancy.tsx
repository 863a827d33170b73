// «Шахматка»: every cabin against the days, as a Russian PMS opens. Each
// night shows what holds it: a confirmed stay (the guest's name), a new request (hatched: it
// does not hold the nights yet), a night closed by hand, a stay imported from another platform,
// a booking read from Avito's API. Nights claimed twice are ringed in red, each stay on
// its own lane, «Конфликт» first in what a screen reader hears.
// A stay or request opens in «Заявки»; two taps on free nights close them; a cabin's name opens
// its own calendar. On a phone the days scroll sideways under the names, which stay put.
import { useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { addDays, addMonths, nightsBetween, nightsOf, todayInMoscow, type IsoDate } from '../../../schema/dates.ts';
import { formatStayDates, MONTHS_GENITIVE } from '../../../schema/format.ts';
import { OCCUPANCY_DEFAULT_DAYS } from '../../../schema/search.ts';
import { BlockNoteField, rangeText } from './CalendarCommon.tsx';
import { useBusyAction, useFailure } from '../ui/useFailure.ts';
import { guestsAndPrice } from './channels.ts';
import {
  busyNights,
  dayHead,
  loadOccupancy,
  monthSpans,
  placeRanges,
  type Occupancy,
  type OccupancyCabin,
  type OccupancyRange,
  type Placed,
} from './occupancy.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { tabHref } from '../ui/hash.ts';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';

/** How much the owner sees at once, and how far the arrows move. */
const PERIODS = {
  weeks: { label: '2 недели', days: 14, step: (from: IsoDate, dir: number) => addDays(from, 14 * dir) },
  month: { label: 'Месяц', days: OCCUPANCY_DEFAULT_DAYS, step: (from: IsoDate, dir: number) => addMonths(from, dir) },
} as const;
type Period = keyof typeof PERIODS;

const KIND_TEXT: Record<OccupancyRange['kind'], string> = {
  booking: 'Бронирование',
  hold: 'Ждёт оплаты',
  request: 'Новая заявка',
  block: 'Закрыто вручную',
  feed: 'Из календаря',
  channel: 'С площадки',
};

/** «5 декабря»: a night as the owner says it. */
const dayText = (date: IsoDate) => `${Number(date.slice(8))} ${MONTHS_GENITIVE[Number(date.slice(5, 7)) - 1]}`;

/** What a range says on its bar: the guest, the note, the platform. */
const barText = (r: OccupancyRange) => r.label || (r.kind === 'block' ? 'Закрыто' : KIND_TEXT[r.kind]);

/**
 * The whole of a range for a screen reader and a long press: «Бронирование №12: Мадина, 20–23
 * декабря 2026», «С площадки: Авито, 2 гостя, 15 000 ₽, 5–8 марта 2027», and «Конфликт: …» first
 * when another stay claims its nights too.
 */
const rangeTitle = (r: OccupancyRange) =>
  `${r.conflict ? 'Конфликт, ночи заняты дважды. ' : ''}${KIND_TEXT[r.kind]}${r.bookingId ? ` №${r.bookingId}` : ''}${r.label ? `: ${r.label}` : ''}${r.kind === 'channel' && guestsAndPrice(r) ? `, ${guestsAndPrice(r)}` : ''}, ${formatStayDates(r.start, r.end)}`;

type Pick = { cabin: OccupancyCabin; first: IsoDate };
type Closing = { cabin: OccupancyCabin; start: IsoDate; end: IsoDate };

export function OccupancyChart() {
  const today = todayInMoscow();
  const [period, setPeriod] = useState<Period>('month');
  const [from, setFrom] = useState(today);
  const { state, reload, setData } = useLoad(() => loadOccupancy(from, PERIODS[period].days));
  const [pending, setPending] = useState(false);
  const asked = useRef(0);
  const [pick, setPick] = useState<Pick | null>(null);
  const [closing, setClosing] = useState<Closing | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const confirm = useConfirm();

  /** Shows another window of days; the last one asked for wins, the shown one stays until it comes. */
  async function show(nextFrom: IsoDate, nextPeriod: Period) {
    setFrom(nextFrom);
    setPeriod(nextPeriod);
    const mine = ++asked.current;
    setPending(true);
    try {
      const data = await loadOccupancy(nextFrom, PERIODS[nextPeriod].days);
      if (mine === asked.current) setData(() => data);
    } catch (err) {
      if (mine === asked.current) failed(err, 'Не удалось загрузить шахматку');
    } finally {
      if (mine === asked.current) setPending(false);
    }
  }
  const refresh = () => show(from, period);

  function tapFree(cabin: OccupancyCabin, date: IsoDate, busy: Set<IsoDate>) {
    if (!pick || pick.cabin.id !== cabin.id) return setPick({ cabin, first: date });
    const [start, last] = pick.first <= date ? [pick.first, date] : [date, pick.first];
    if (nightsOf(start, addDays(last, 1)).some((n) => busy.has(n))) {
      notify.error('Между выбранными ночами есть занятые: выберите свободные ночи подряд');
      return setPick({ cabin, first: date });
    }
    setPick(null);
    setClosing({ cabin, start, end: addDays(last, 1) });
  }

  async function openBlock(cabin: OccupancyCabin, r: OccupancyRange) {
    const ok = await confirm({
      title: 'Открыть даты?',
      text: `«${cabin.name}»: ${rangeText(r.start, r.end)}${r.label ? ` (${r.label})` : ''} снова станут свободными для бронирования.`,
      confirmLabel: 'Открыть даты',
      cancelLabel: 'Оставить закрытыми',
    });
    if (!ok) return;
    try {
      await call(client().admin.blocks[':id'].$delete({ param: { id: String(r.blockId) } }));
      notify.success(`Снова свободно: ${rangeText(r.start, r.end)}`);
      await refresh();
    } catch (err) {
      failed(err, 'Не удалось открыть даты');
    }
  }

  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  const data = state.data;
  const to = addDays(from, PERIODS[period].days - 1);

  return (
    <section className="occupancy" aria-labelledby="occupancy-title">
      <h3 className="visually-hidden" id="occupancy-title">
        Шахматка
      </h3>
      <div className="occupancy__bar">
        <div className="occupancy__nav">
          <button
            type="button"
            className="btn btn--secondary btn--icon"
            onClick={() => void show(PERIODS[period].step(from, -1), period)}
          >
            <Icon name="chevron-left" label={period === 'month' ? 'Месяц назад' : '2 недели назад'} />
          </button>
          <p className="occupancy__range" aria-live="polite">
            {formatStayDates(from, to === from ? addDays(from, 1) : to).replace(/ \d{4}$/, '')}
          </p>
          <button
            type="button"
            className="btn btn--secondary btn--icon"
            onClick={() => void show(PERIODS[period].step(from, 1), period)}
          >
            <Icon name="chevron-right" label={period === 'month' ? 'Месяц вперёд' : '2 недели вперёд'} />
          </button>
        </div>
        <div className="occupancy__view">
          <div className="segmented occupancy__period" role="group" aria-label="Сколько дней показать">
            {(Object.keys(PERIODS) as Period[]).map((p) => (
              <button
                key={p}
                type="button"
                className="segmented__btn"
                aria-pressed={period === p}
                onClick={() => void show(from, p)}
              >
                {PERIODS[p].label}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="btn btn--ghost occupancy__today"
            disabled={from === today}
            onClick={() => void show(today, period)}
          >
            Сегодня
          </button>
        </div>
      </div>
      <p className="occupancy__hint" role="status">
        {pick ? (
          <>
            <span>
              «{pick.cabin.name}», с {dayText(pick.first)}: теперь нажмите последнюю ночь.
            </span>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPick(null)}>
              Отменить
            </button>
          </>
        ) : (
          'Нажмите свободную ночь, затем последнюю, чтобы закрыть даты.'
        )}
      </p>
      {data.cabins.length === 0 ? (
        <p className="empty">Сначала добавьте домик во вкладке «Домики».</p>
      ) : (
        <Chart
          data={data}
          today={today}
          pending={pending}
          pick={pick}
          onFree={tapFree}
          onBlock={(c, r) => void openBlock(c, r)}
        />
      )}
      <Legend />
      {closing && <CloseNights closing={closing} onDone={() => setClosing(null)} onClosed={() => void refresh()} />}
    </section>
  );
}

/** What each colour means, and (not to be guessed from the grid) that a name is a link. */
function Legend() {
  const items: [string, string][] = [
    ['booking', 'Бронирование'],
    ['hold', 'Ждёт оплаты'],
    ['request', 'Новая заявка'],
    ['block', 'Закрыто вручную'],
    ['feed', 'Другая площадка'],
    ['channel', 'Авито'],
    ['conflict', 'Конфликт: ночи заняты дважды'],
    ['clean', 'Ждёт уборки (отмечают «Убрано» в «Сегодня»)'],
    ['free', 'Свободно'],
  ];
  return (
    <div className="occupancy__foot">
      <ul className="occupancy__legend" aria-label="Обозначения">
        {items.map(([kind, text]) => (
          <li key={kind}>
            <span className={`occupancy__swatch occupancy__swatch--${kind}`} aria-hidden="true" />
            {text}
          </li>
        ))}
      </ul>
      <p className="hint">Имя домика открывает его календарь: цены по сезонам, импорт и экспорт.</p>
    </div>
  );
}

type ChartProps = {
  data: Occupancy;
  today: IsoDate;
  pending: boolean;
  pick: Pick | null;
  onFree: (cabin: OccupancyCabin, date: IsoDate, busy: Set<IsoDate>) => void;
  onBlock: (cabin: OccupancyCabin, r: OccupancyRange) => void;
};

function Chart({ data, today, pending, pick, onFree, onBlock }: ChartProps) {
  const dates = nightsOf(data.from, addDays(data.from, data.days));
  const style = { '--occupancy-days': data.days } as CSSProperties;
  // Rows 1–2 are the months and the days; each cabin then takes as many rows as it has lanes.
  let row = 3;
  return (
    <div className="occupancy__scroll" role="region" aria-label="Домики по дням" tabIndex={0} aria-busy={pending}>
      <div className="occupancy__grid" style={style}>
        <div className="occupancy__corner">Домик</div>
        {monthSpans(data.from, data.days).map((m) => (
          <div key={m.label} className="occupancy__month" style={{ gridColumn: `${m.col + 2} / span ${m.span}` }}>
            <span>{m.label}</span>
          </div>
        ))}
        {dates.map((date, col) => {
          const head = dayHead(date);
          return (
            <div
              key={date}
              className={`occupancy__day${head.weekend ? ' is-weekend' : ''}${date === today ? ' is-today' : ''}`}
              style={{ gridColumn: col + 2 }}
              data-date={date}
            >
              <span className="occupancy__weekday">{head.weekday}</span>
              <span className="occupancy__date">{head.day}</span>
            </div>
          );
        })}
        {data.cabins.map((cabin) => {
          const { placed, lanes } = placeRanges(cabin.ranges, data.from, data.days);
          const busy = busyNights(cabin.ranges);
          const covered = new Set(
            placed.filter((p) => p.lane === 0).flatMap((p) => Array.from({ length: p.span }, (_, i) => p.col + i)),
          );
          const top = row;
          row += lanes;
          return (
            <div
              key={cabin.id}
              className="occupancy__cabin"
              role="group"
              aria-label={cabin.name}
              style={{ display: 'contents' }}
            >
              <a
                className="occupancy__name"
                href={tabHref('calendar', cabin.id)}
                style={{ gridRow: `${top} / span ${lanes}` }}
                title={`Календарь домика «${cabin.name}»`}
              >
                <span className="occupancy__name-text">{cabin.name}</span>
                {!cabin.active && <span className="occupancy__hidden">скрыт</span>}
              </a>
              {Array.from({ length: lanes }, (_, lane) =>
                dates.map((date, col) => {
                  const cls = `occupancy__cell${dayHead(date).weekend ? ' is-weekend' : ''}${date === today ? ' is-today' : ''}`;
                  const at = { gridRow: top + lane, gridColumn: col + 2 };
                  if (lane > 0 || covered.has(col) || busy.has(date))
                    return <span key={`${lane}-${date}`} className={cls} style={at} />;
                  const picked = pick?.cabin.id === cabin.id && pick.first === date;
                  return (
                    <button
                      key={`${lane}-${date}`}
                      type="button"
                      className={`${cls} occupancy__free`}
                      style={at}
                      aria-pressed={picked}
                      aria-label={`«${cabin.name}», ночь на ${dayText(date)}: свободно`}
                      data-date={date}
                      onClick={() => onFree(cabin, date, busy)}
                    >
                      {picked && <Icon name="check" />}
                    </button>
                  );
                }),
              )}
              {/* A cleaning not ticked «Убрано» in «Сегодня»: a mark in the day's corner, over the stay or the free night. */}
              {cabin.cleaning
                .filter((date) => date >= data.from && date < addDays(data.from, data.days))
                .map((date) => (
                  <span
                    key={`clean-${date}`}
                    className="occupancy__clean"
                    style={{ gridRow: top, gridColumn: nightsBetween(data.from, date) + 2 }}
                    role="img"
                    aria-label={`«${cabin.name}», ${dayText(date)}: ждёт уборки`}
                    title="Ждёт уборки"
                    data-clean-date={date}
                  />
                ))}
              {placed.map((p) => (
                <RangeBar
                  key={`${p.lane}-${p.range.kind}-${p.range.bookingId ?? p.range.blockId ?? p.range.label}-${p.range.start}`}
                  cabin={cabin}
                  p={p}
                  top={top}
                  days={data.days}
                  onBlock={onBlock}
                />
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RangeBar({
  cabin,
  p,
  top,
  days,
  onBlock,
}: {
  cabin: OccupancyCabin;
  p: Placed;
  top: number;
  days: number;
  onBlock: ChartProps['onBlock'];
}) {
  const r = p.range;
  // The server clips ranges to the window: one touching its edge may go on, so it is drawn running off.
  const clipped = `${p.col === 0 ? ' is-clipped-start' : ''}${p.col + p.span === days ? ' is-clipped-end' : ''}`;
  const props = {
    className: `occupancy__range-bar occupancy__range-bar--${r.kind}${clipped}${r.conflict ? ' is-conflict' : ''}`,
    style: { gridRow: top + p.lane, gridColumn: `${p.col + 2} / span ${p.span}` },
    title: rangeTitle(r),
    'aria-label': `«${cabin.name}»: ${rangeTitle(r)}`,
  };
  const text = (
    <span className="occupancy__bar-text">
      {r.conflict && (
        <span className="occupancy__conflict-mark" aria-hidden="true">
          !
        </span>
      )}
      {barText(r)}
    </span>
  );
  if ((r.kind === 'booking' || r.kind === 'hold' || r.kind === 'request') && r.bookingId !== undefined) {
    return (
      <a {...props} href={tabHref('bookings', r.bookingId)}>
        {text}
      </a>
    );
  }
  if (r.kind === 'block' && r.blockId !== undefined) {
    return (
      <button type="button" {...props} onClick={() => onBlock(cabin, r)}>
        {text}
      </button>
    );
  }
  return (
    <span {...props} role="img">
      {text}
    </span>
  );
}

/** The last step of closing nights: what will close, an optional note, and the save. */
function CloseNights({ closing, onDone, onClosed }: { closing: Closing; onDone: () => void; onClosed: () => void }) {
  const [note, setNote] = useState('');
  const [busy, run] = useBusyAction();
  const notify = useNotify();

  async function save(e: FormEvent) {
    e.preventDefault();
    await run(async () => {
      await call(
        client().admin.cabins[':id'].blocks.$post({
          param: { id: String(closing.cabin.id) },
          json: { start: closing.start, end: closing.end, note },
        }),
      );
      notify.success(`Закрыто: «${closing.cabin.name}», ${rangeText(closing.start, closing.end)}`);
      onDone();
      onClosed();
    }, 'Не удалось закрыть даты');
  }

  return (
    <Dialog title="Закрыть даты?" onRequestClose={onDone} className="modal--confirm">
      <form onSubmit={save} className="occupancy__close">
        <p>
          «{closing.cabin.name}»: <b>{rangeText(closing.start, closing.end)}</b>. Гости не смогут выбрать эти ночи.
        </p>
        <BlockNoteField
          id="occupancy-note"
          value={note}
          placeholder="Например: бронь по телефону"
          onChange={setNote}
          autofocus
        />
        <div className="modal__actions">
          <button type="button" className="btn btn--secondary" onClick={onDone}>
            Отмена
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
            <Icon name="calendar" /> {busy ? 'Сохранение...' : 'Закрыть даты'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
