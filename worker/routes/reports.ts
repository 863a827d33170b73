import { Hono } from 'hono';
import { reportQuerySchema } from '../../schema/reports.ts';
import type { AppEnv } from '../env.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { bookingFileRows } from '../queries/report-rows.ts';
import { funnelReport } from '../queries/funnel.ts';
import { reportSummary } from '../queries/reports.ts';
import { touristTaxReport } from '../queries/tourist-tax.ts';
import { bookingsCsv, bookingsXlsx, fileName } from '../reports/booking-files.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Отчёты');

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const attachment = (name: string) => `attachment; filename="${name}"`;

/**
 * The owner's numbers: «Сводка» and the tourist-tax report, which a manager reads too
 * (no names in them), and the files for the accountant, with the guests' names and phones: the
 * owner's alone (worker/middleware/roles.ts).
 */
export const reportRoutes = new Hono<AppEnv>()
  .get(
    '/reports/summary',
    doc('Сводка за период: загрузка, выручка', { admin: true }),
    requireAdmin,
    validate('query', reportQuerySchema),
    async (c) => c.json(await reportSummary(c.env, c.req.valid('query'))),
  )
  .get(
    '/reports/funnel',
    doc('Воронка и источники: посещения, поиски, карточки, даты, заявки, оплаты', {
      admin: true,
      description:
        'Посещения считает сам сайт, без cookie (POST /beacon); заявки, оплаты и подтверждённые брони — по броням, сделанным за период (по дню заявки, Москва). Брони площадок (Авито, календари) — источник своего канала.',
    }),
    requireAdmin,
    validate('query', reportQuerySchema),
    async (c) => c.json(await funnelReport(c.env, c.req.valid('query'))),
  )
  .get(
    '/reports/tourist-tax',
    doc('Туристический налог по месяцам', { admin: true }),
    requireAdmin,
    validate('query', reportQuerySchema),
    async (c) => c.json(await touristTaxReport(c.env, c.req.valid('query'))),
  )
  .get(
    '/reports/bookings.csv',
    doc('Брони за период, CSV', { admin: true, answer: { description: 'Таблица CSV', media: 'text/csv' } }),
    requireAdmin,
    validate('query', reportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      return c.body(bookingsCsv(await bookingFileRows(c.env, q)), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': attachment(fileName(q.from, q.to, 'csv')),
      });
    },
  )
  .get(
    '/reports/bookings.xlsx',
    doc('Брони за период, Excel', {
      admin: true,
      answer: {
        description: 'Книга Excel',
        media: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    }),
    requireAdmin,
    validate('query', reportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const bytes = await bookingsXlsx(await bookingFileRows(c.env, q));
      return c.body(bytes, 200, {
        'content-type': XLSX_TYPE,
        'content-disposition': attachment(fileName(q.from, q.to, 'xlsx')),
      });
    },
  );
