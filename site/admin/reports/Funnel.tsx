// «Воронка» and «Откуда бронирования»: how far the site's visitors got in a period, step by step,
// where the visits and the bookings came from, and how each cabin's card turns into requests —
// from the site's own counting, with no cookie (GET /api/admin/reports/funnel). The figures are
// the server's; only the shares between steps are worked out here.
import { formatNumber, formatPrice } from '../../../schema/format.ts';
import type { FunnelFigures, FunnelReport } from '../../../schema/reports.ts';
import { call, client } from '../client.ts';
import { LoadError, Loading } from '../ui/useLoad.tsx';
import { usePeriodLoad } from './usePeriodLoad.ts';
import { BarChart, Figure, TableScroll } from './charts.tsx';
import { percent, type Period } from './period.ts';

const loadFunnel = (p: Period) =>
  call(client().admin.reports.funnel.$get({ query: { from: p.from, to: p.to } })) as Promise<FunnelReport>;

/** The steps, in order, as «Сводка» names them. */
const STEPS: { key: keyof FunnelFigures; label: string }[] = [
  { key: 'visits', label: 'Посещения' },
  { key: 'searches', label: 'Поиски' },
  { key: 'cards', label: 'Открыли домик' },
  { key: 'dates', label: 'Выбрали даты' },
  { key: 'requests', label: 'Заявки' },
  { key: 'prepaid', label: 'Оплатили' },
  { key: 'confirmed', label: 'Подтверждены' },
];

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

export function Funnel({ period }: { period: Period }) {
  const { state, reload } = usePeriodLoad(period, loadFunnel);

  return (
    <>
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && <FunnelFiguresView f={state.data} />}
    </>
  );
}

function FunnelFiguresView({ f }: { f: FunnelReport }) {
  const top = Math.max(1, ...STEPS.map((s) => f.total[s.key]));
  return (
    <>
      <section className="group" aria-labelledby="report-funnel-title">
        <h3 id="report-funnel-title" className="report-section__title">
          Воронка
        </h3>
        <p className="muted">
          Сайт считает сам, без cookie и без данных посетителя. Заявки и оплаты — по заявкам, пришедшим в этот период.
        </p>
        <Figure
          caption="Воронка: от посещения до подтверждённой брони"
          chart={
            <BarChart
              label={`Воронка: ${STEPS.map((s) => `${s.label} — ${formatNumber(f.total[s.key])}`).join('; ')}`}
              bars={STEPS.map((s) => ({
                key: s.key,
                label: s.label,
                value: f.total[s.key] / top,
                text: formatNumber(f.total[s.key]),
              }))}
            />
          }
        >
          <table className="report-table">
            <caption className="visually-hidden">Воронка по шагам и год назад</caption>
            <thead>
              <tr>
                <th scope="col">Шаг</th>
                <th scope="col">Сейчас</th>
                <th scope="col">От посещений</th>
                <th scope="col">Год назад</th>
              </tr>
            </thead>
            <tbody>
              {STEPS.map((s) => (
                <tr key={s.key}>
                  <th scope="row">{s.label}</th>
                  <td>{formatNumber(f.total[s.key])}</td>
                  <td>{percent(share(f.total[s.key], f.total.visits))}</td>
                  <td>{formatNumber(f.lastYear[s.key])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Figure>
      </section>

      <section className="group" aria-labelledby="report-sources-title">
        <h3 id="report-sources-title" className="report-section__title">
          Откуда бронирования
        </h3>
        {f.bySource.length === 0 ? (
          <p className="muted">В этот период посещений и заявок нет.</p>
        ) : (
          <TableScroll label="Таблица: посещения и бронирования по источникам">
            <table className="report-table">
              <caption className="visually-hidden">Посещения и бронирования по источникам</caption>
              <thead>
                <tr>
                  <th scope="col">Источник</th>
                  <th scope="col">Посещения</th>
                  <th scope="col">Заявки</th>
                  <th scope="col">Подтверждены</th>
                  <th scope="col">Сумма</th>
                </tr>
              </thead>
              <tbody>
                {f.bySource.map((s) => (
                  <tr key={s.source}>
                    <th scope="row">
                      {s.source}
                      {s.channel && <small> (площадка)</small>}
                    </th>
                    <td>{s.channel ? '—' : formatNumber(s.visits)}</td>
                    <td>{formatNumber(s.requests)}</td>
                    <td>{formatNumber(s.confirmed)}</td>
                    <td>{formatPrice(s.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      {f.byCabin.length > 0 && (
        <section className="group" aria-labelledby="report-conversion-title">
          <h3 id="report-conversion-title" className="report-section__title">
            Заявки со страниц домиков
          </h3>
          <TableScroll label="Таблица: открыли домик, выбрали даты, заявки по домикам">
            <table className="report-table">
              <caption className="visually-hidden">Открытия домиков и заявки по домикам</caption>
              <thead>
                <tr>
                  <th scope="col">Домик</th>
                  <th scope="col">Открыли</th>
                  <th scope="col">Выбрали даты</th>
                  <th scope="col">Заявки</th>
                  <th scope="col">Заявок от открытий</th>
                </tr>
              </thead>
              <tbody>
                {f.byCabin.map((c) => (
                  <tr key={c.cabinId}>
                    <th scope="row">{c.name}</th>
                    <td>{formatNumber(c.cards)}</td>
                    <td>{formatNumber(c.dates)}</td>
                    <td>{formatNumber(c.requests)}</td>
                    <td>{percent(c.conversion)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      )}
    </>
  );
}
