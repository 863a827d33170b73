// «Туристический налог»: what the owner reports to the municipality each quarter — the
// nights, the accommodation the tax was charged on and the tax, by quarter and month, each by
// cabin, from the tax lines of the confirmed bookings (GET /api/admin/reports/tourist-tax).
// «Печать» prints this section alone (reports.css, body.print-tax).
import { formatNumber, formatPrice } from '../../../schema/format.ts';
import type { TaxCabin, TaxFigures, TouristTaxReport } from '../../../schema/reports.ts';
import { call, client } from '../client.ts';
import { LoadError, Loading } from '../ui/useLoad.tsx';
import { usePeriodLoad } from './usePeriodLoad.ts';
import { TableScroll } from './charts.tsx';
import { monthLabel, periodLabel, type Period } from './period.ts';

const loadTax = (p: Period) =>
  call(client().admin.reports['tourist-tax'].$get({ query: { from: p.from, to: p.to } })) as Promise<TouristTaxReport>;

/** Prints the tax report alone: the rest of the panel is hidden while the print dialog is open. */
function printTax() {
  document.body.classList.add('print-tax');
  const done = () => {
    document.body.classList.remove('print-tax');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

export function TouristTax({ period }: { period: Period }) {
  const { state, reload } = usePeriodLoad(period, loadTax);

  return (
    <section className="group tax-report" aria-labelledby="tax-report-title">
      <div className="tax-report__head">
        <h3 id="tax-report-title" className="report-section__title">
          Туристический налог
        </h3>
        <button
          type="button"
          className="btn btn--secondary no-print"
          onClick={printTax}
          disabled={state.status !== 'loaded'}
        >
          Печать
        </button>
      </div>
      <p className="tax-report__period">{periodLabel(period)}</p>
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && <TaxTables report={state.data} />}
    </section>
  );
}

function TaxTables({ report }: { report: TouristTaxReport }) {
  if (report.total.tax === 0) {
    return (
      <p className="muted">
        В этот период туристический налог не начислялся: у подтверждённых бронирований нет строки налога.
      </p>
    );
  }
  return (
    <>
      <p className="tax-report__total">
        Итого: налог <strong>{formatPrice(report.total.tax)}</strong> с {formatPrice(report.total.taxable)} за{' '}
        {formatNumber(report.total.nights)} ночей
      </p>
      <TaxTable
        caption="По кварталам"
        rows={report.quarters.map((q) => ({ key: q.quarter, label: q.label, figures: q, cabins: q.cabins }))}
      />
      <TaxTable
        caption="По месяцам"
        rows={report.months.map((m) => ({ key: m.month, label: monthLabel(m.month), figures: m, cabins: m.cabins }))}
      />
    </>
  );
}

type Row = { key: string; label: string; figures: TaxFigures; cabins: TaxCabin[] };

/** A quarter's or month's sum, then a row for each of its cabins. */
function TaxTable({ caption, rows }: { caption: string; rows: Row[] }) {
  return (
    <TableScroll label={`Таблица налога: ${caption.toLowerCase()}`}>
      <table className="report-table tax-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Период и домик</th>
            <th scope="col">Ночей</th>
            <th scope="col">Стоимость проживания</th>
            <th scope="col">Налог</th>
          </tr>
        </thead>
        {rows.map((r) => (
          <tbody key={r.key}>
            <tr className="tax-table__sum">
              <th scope="row">{r.label}</th>
              <td>{formatNumber(r.figures.nights)}</td>
              <td>{formatPrice(r.figures.taxable)}</td>
              <td>{formatPrice(r.figures.tax)}</td>
            </tr>
            {r.cabins.map((c) => (
              <tr key={c.cabinId}>
                <th scope="row" className="tax-table__cabin">
                  {c.name}
                </th>
                <td>{formatNumber(c.nights)}</td>
                <td>{formatPrice(c.taxable)}</td>
                <td>{formatPrice(c.tax)}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </TableScroll>
  );
}
