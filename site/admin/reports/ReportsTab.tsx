// «Сводка»: the owner's numbers for a period — occupancy by cabin and overall, revenue
// paid and expected, the price of a night, nights by channel, how far ahead guests book,
// cancellations, each beside the same period a year before — as cards, bars by month and by
// cabin with their tables, the funnel of the site's visits and where bookings come from
// (Funnel.tsx), the accountant's files and the tourist-tax report. Every figure is the server's
// (GET /api/admin/reports/summary); nothing is added up here.
import { useState, type FormEvent } from 'react';
import { todayInMoscow } from '../../../schema/dates.ts';
import { formatNumber, formatPrice, NBSP } from '../../../schema/format.ts';
import { formatKopecks } from '../../../schema/payment-options.ts';
import {
  PERIOD_KINDS,
  PERIOD_LABELS,
  reportQuerySchema,
  type PeriodKind,
  type ReportFigures,
  type ReportSummary,
} from '../../../schema/reports.ts';
import { call, client } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { LoadError, Loading } from '../ui/useLoad.tsx';
import { usePeriodLoad } from './usePeriodLoad.ts';
import { BarChart, ColumnChart, Figure, scaleTop, TableScroll } from './charts.tsx';
import { monthLabel, percent, periodLabel, presetPeriod, stepPeriod, type Period } from './period.ts';
import { Funnel } from './Funnel.tsx';
import { TouristTax } from './TouristTax.tsx';

const loadSummary = (p: Period) =>
  call(client().admin.reports.summary.$get({ query: { from: p.from, to: p.to } })) as Promise<ReportSummary>;

/** Roubles that may carry kopecks (what was paid): «1 234,50 ₽». */
const money = (roubles: number) => formatKopecks(Math.round(roubles * 100));
const days = (n: number | null) => (n === null ? '—' : `${String(n).replace('.', ',')}${NBSP}дн.`);

export function ReportsTab({ owner }: { owner: boolean }) {
  const [period, setPeriod] = useState<Period>(() => presetPeriod('year', todayInMoscow()));
  const { state, reload } = usePeriodLoad(period, loadSummary);

  const query = new URLSearchParams({ from: period.from, to: period.to }).toString();
  return (
    <div className="reports">
      <PeriodPicker period={period} onChange={setPeriod} />
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && <Figures s={state.data} />}
      <Funnel period={period} />
      {owner && (
        <section className="group report-files" aria-labelledby="report-files-title">
          <h3 id="report-files-title" className="report-section__title">
            Файлы для бухгалтера
          </h3>
          <p className="muted">
            Бронирования с заездом в этот период: суммы, оплаты и возвраты, номера платежей ЮKassa, гости.
          </p>
          <div className="report-files__links">
            <a className="btn btn--secondary" href={`/api/admin/reports/bookings.csv?${query}`} download>
              Скачать CSV
            </a>
            <a className="btn btn--secondary" href={`/api/admin/reports/bookings.xlsx?${query}`} download>
              Скачать XLSX
            </a>
          </div>
        </section>
      )}
      <TouristTax period={period} />
    </div>
  );
}

/** Месяц, сезон, год or the owner's own dates; the arrows step a preset period back and forth. */
function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const [kind, setKind] = useState<PeriodKind>(period.kind);
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [error, setError] = useState<string>();

  function choose(next: PeriodKind) {
    setKind(next);
    setError(undefined);
    if (next === 'custom') {
      setFrom(period.from);
      setTo(period.to);
      return;
    }
    // The month, season or year that holds the period's start (today's when first opened).
    onChange(presetPeriod(next, period.kind === 'custom' ? todayInMoscow() : period.from));
  }
  function show(e: FormEvent) {
    e.preventDefault();
    const parsed = reportQuerySchema.safeParse({ from, to });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    onChange({ kind: 'custom', ...parsed.data });
  }

  return (
    <div className="report-period">
      <div className="segmented report-period__kinds" role="group" aria-label="Период">
        {PERIOD_KINDS.map((k) => (
          <button key={k} type="button" className="segmented__btn" aria-pressed={kind === k} onClick={() => choose(k)}>
            {PERIOD_LABELS[k]}
          </button>
        ))}
      </div>
      {kind === 'custom' ? (
        <form className="report-period__custom" onSubmit={show} noValidate>
          <Field label="С">
            {(p) => (
              <input
                {...p}
                className="input"
                type="date"
                value={from}
                onChange={(e) => setFrom(e.target.value)}
                required
              />
            )}
          </Field>
          <Field label="По" error={error}>
            {(p) => (
              <input {...p} className="input" type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
            )}
          </Field>
          <button type="submit" className="btn btn--primary">
            Показать
          </button>
        </form>
      ) : (
        <div className="report-period__step">
          <button
            type="button"
            className="btn btn--ghost report-period__arrow"
            aria-label="Предыдущий период"
            onClick={() => onChange(stepPeriod(period, -1))}
          >
            ‹
          </button>
          <p className="report-period__label" aria-live="polite">
            {periodLabel(period)}
          </p>
          <button
            type="button"
            className="btn btn--ghost report-period__arrow"
            aria-label="Следующий период"
            onClick={() => onChange(stepPeriod(period, 1))}
          >
            ›
          </button>
        </div>
      )}
      {kind === 'custom' && period.kind === 'custom' && <p className="report-period__label">{periodLabel(period)}</p>}
    </div>
  );
}

/** A figure, and the same figure a year before. */
function Card({ title, value, detail, before }: { title: string; value: string; detail?: string; before: string }) {
  return (
    <li className="report-card">
      <p className="report-card__title">{title}</p>
      <p className="report-card__value">{value}</p>
      {detail && <p className="report-card__detail">{detail}</p>}
      <p className="report-card__before">Год назад: {before}</p>
    </li>
  );
}

function Figures({ s }: { s: ReportSummary }) {
  const y = s.lastYear;
  const monthsTop = scaleTop(s.byMonth.map((m) => m.occupancy ?? 0));
  const cancelled = (f: ReportFigures) => `${formatNumber(f.cancellations.count)} (${percent(f.cancellations.share)})`;
  return (
    <>
      <h3 className="visually-hidden">Главные цифры</h3>
      <ul className="report-cards">
        <Card
          title="Загрузка"
          value={percent(s.occupancy)}
          detail={`${formatNumber(s.nightsSold)} ночей продано, домиков: ${s.cabins}`}
          before={percent(y.occupancy)}
        />
        <Card
          title="Оплачено"
          value={money(s.revenue.paid)}
          detail={s.revenue.refunded > 0 ? `возвращено ${money(s.revenue.refunded)}` : undefined}
          before={money(y.revenue.paid)}
        />
        <Card
          title="Ожидается"
          value={formatPrice(s.revenue.expected)}
          detail={`подтверждённых бронирований: ${s.bookings}`}
          before={formatPrice(y.revenue.expected)}
        />
        <Card
          title="Средняя цена ночи"
          value={s.adr === null ? '—' : formatPrice(s.adr)}
          before={y.adr === null ? '—' : formatPrice(y.adr)}
        />
        <Card
          title="Бронируют заранее"
          value={days(s.leadTimeDays)}
          detail="медиана, от заявки до заезда"
          before={days(y.leadTimeDays)}
        />
        <Card title="Отмены" value={cancelled(s)} before={cancelled(y)} />
      </ul>

      <section className="group" aria-labelledby="report-channels-title">
        <h3 id="report-channels-title" className="report-section__title">
          Ночи по каналам
        </h3>
        {s.nightsByChannel.length === 0 ? (
          <p className="muted">В этот период ночей не продано.</p>
        ) : (
          <TableScroll label="Таблица: проданные ночи по каналам">
            <table className="report-table">
              <caption className="visually-hidden">Проданные ночи по каналам</caption>
              <thead>
                <tr>
                  <th scope="col">Канал</th>
                  <th scope="col">Ночей</th>
                  <th scope="col">Доля</th>
                  <th scope="col">Год назад</th>
                </tr>
              </thead>
              <tbody>
                {s.nightsByChannel.map((c) => {
                  const before = y.nightsByChannel.find((o) => o.channel === c.channel && o.name === c.name);
                  return (
                    <tr key={`${c.channel}|${c.name}`}>
                      <th scope="row">{c.name}</th>
                      <td>{formatNumber(c.nights)}</td>
                      <td>{percent(s.nightsSold > 0 ? c.nights / s.nightsSold : null)}</td>
                      <td>{formatNumber(before?.nights ?? 0)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="group" aria-labelledby="report-months-title">
        <h3 id="report-months-title" className="report-section__title">
          По месяцам
        </h3>
        <Figure
          caption="Загрузка по месяцам"
          chart={
            <ColumnChart
              label={`Загрузка по месяцам, столбцы: ${s.byMonth.map((m) => `${monthLabel(m.month)} — ${percent(m.occupancy)}`).join('; ')}`}
              top={monthsTop}
              topText={percent(monthsTop)}
              bars={s.byMonth.map((m) => ({
                key: m.month,
                label: monthLabel(m.month, true),
                value: m.occupancy ?? 0,
                text: percent(m.occupancy),
              }))}
            />
          }
        >
          <table className="report-table">
            <caption className="visually-hidden">Загрузка и выручка по месяцам</caption>
            <thead>
              <tr>
                <th scope="col">Месяц</th>
                <th scope="col">Ночей</th>
                <th scope="col">Загрузка</th>
                <th scope="col">Ожидается</th>
                <th scope="col">Оплачено</th>
                <th scope="col">Загрузка год назад</th>
              </tr>
            </thead>
            <tbody>
              {s.byMonth.map((m, i) => (
                <tr key={m.month}>
                  <th scope="row">{monthLabel(m.month)}</th>
                  <td>{formatNumber(m.nights)}</td>
                  <td>{percent(m.occupancy)}</td>
                  <td>{formatPrice(m.revenue)}</td>
                  <td>{money(m.paid)}</td>
                  <td>{percent(y.byMonth[i]?.occupancy ?? null)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Figure>
      </section>

      <section className="group" aria-labelledby="report-cabins-title">
        <h3 id="report-cabins-title" className="report-section__title">
          По домикам
        </h3>
        <Figure
          caption="Загрузка по домикам"
          chart={
            <BarChart
              label={`Загрузка по домикам, полосы: ${s.byCabin.map((c) => `${c.name} — ${c.active ? percent(c.occupancy) : 'не показывается на сайте'}`).join('; ')}`}
              bars={s.byCabin.map((c) => ({
                key: c.cabinId,
                label: c.name,
                value: c.occupancy ?? 0,
                text: c.active ? percent(c.occupancy) : 'скрыт',
                muted: !c.active,
              }))}
            />
          }
        >
          <table className="report-table">
            <caption className="visually-hidden">Загрузка и выручка по домикам</caption>
            <thead>
              <tr>
                <th scope="col">Домик</th>
                <th scope="col">Ночей</th>
                <th scope="col">Загрузка</th>
                <th scope="col">Бронирований</th>
                <th scope="col">Ожидается</th>
                <th scope="col">Оплачено</th>
              </tr>
            </thead>
            <tbody>
              {s.byCabin.map((c) => (
                <tr key={c.cabinId}>
                  <th scope="row">
                    {c.name}
                    {!c.active && <small> (скрыт с сайта)</small>}
                  </th>
                  <td>{formatNumber(c.nights)}</td>
                  <td>{percent(c.occupancy)}</td>
                  <td>{formatNumber(c.bookings)}</td>
                  <td>{formatPrice(c.revenue)}</td>
                  <td>{money(c.paid)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Figure>
      </section>
    </>
  );
}
