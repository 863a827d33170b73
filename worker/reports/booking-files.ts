// The accountant's files: the bookings arriving in a period, with what was paid and
// returned and ЮKassa's ids, as CSV for Excel in a Russian locale and as XLSX. One list of
// columns makes both, so they never differ.
import { Workbook } from 'excel-builder-vanilla';
import { strToU8, zipSync } from 'fflate';
import {
  BOOKING_CHANNEL_LABELS,
  BOOKING_STATUS_LABELS,
  type BookingChannel,
  type BookingStatus,
} from '../../schema/booking-options.ts';
import type { BookingFileRow } from '../queries/report-rows.ts';
import { sourceLabel, type BookingSource } from '../../schema/visits.ts';

type Cell = string | number;
type Column = { title: string; width: number; value: (r: BookingFileRow) => Cell; money?: 'kopecks' };

const COLUMNS: Column[] = [
  { title: '№', width: 8, value: (r) => r.id },
  { title: 'Статус', width: 16, value: (r) => BOOKING_STATUS_LABELS[r.status as BookingStatus] ?? r.status },
  { title: 'Домик', width: 24, value: (r) => r.cabin },
  { title: 'Заезд', width: 12, value: (r) => r.checkIn },
  { title: 'Выезд', width: 12, value: (r) => r.checkOut },
  { title: 'Ночей', width: 8, value: (r) => r.nights },
  { title: 'Гостей', width: 8, value: (r) => r.guests },
  { title: 'Сумма, ₽', width: 12, value: (r) => r.total },
  { title: 'Туристический налог, ₽', width: 12, value: (r) => r.tax },
  { title: 'Оплачено, ₽', width: 12, value: (r) => r.paid, money: 'kopecks' },
  { title: 'Возвращено, ₽', width: 12, value: (r) => r.refunded, money: 'kopecks' },
  { title: 'Платежи ЮKassa', width: 40, value: (r) => r.paymentIds },
  { title: 'Возвраты ЮKassa', width: 40, value: (r) => r.refundIds },
  { title: 'Канал', width: 12, value: (r) => BOOKING_CHANNEL_LABELS[r.channel as BookingChannel] ?? r.channel },
  { title: 'Откуда', width: 20, value: (r) => sourceLabel(r.source ? (JSON.parse(r.source) as BookingSource) : null) },
  { title: 'Создана', width: 17, value: (r) => r.createdAt },
  { title: 'Гость', width: 24, value: (r) => r.name },
  { title: 'Телефон', width: 18, value: (r) => r.phone },
  { title: 'E-mail', width: 26, value: (r) => r.email },
];

/** The cell of a row: kopecks as roubles with their kopecks (1234.5). */
const cellOf = (c: Column, r: BookingFileRow): Cell => {
  const v = c.value(r);
  return c.money === 'kopecks' ? Number(v) / 100 : v;
};

/** `bookings-<from>-<to>.csv`: the name the browser saves the file under. */
export const fileName = (from: string, to: string, ext: 'csv' | 'xlsx') => `bookings-${from}-${to}.${ext}`;

// ——— CSV: UTF-8 with a BOM (without it Excel reads UTF-8 as cp1251), `;` between fields and a
// decimal comma (Excel's Russian locale), CRLF between records (RFC 4180).

/**
 * A field as Excel reads it: quoted when it holds `;`, a quote or a line break; text a guest typed
 * that Excel would take for a formula (=, +, -, @ first) starts with an apostrophe, so opening the
 * file never runs anything.
 */
function csvField(v: Cell): string {
  if (typeof v === 'number') return String(v).replace('.', ',');
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function bookingsCsv(rows: readonly BookingFileRow[]): string {
  const lines = [COLUMNS.map((c) => csvField(c.title)), ...rows.map((r) => COLUMNS.map((c) => csvField(cellOf(c, r))))];
  return `\uFEFF${lines.map((l) => l.join(';')).join('\r\n')}\r\n`;
}

// ——— XLSX: excel-builder-vanilla writes the workbook's XML (text cells as shared strings, never
// formulas) and fflate zips it synchronously: fflate's asynchronous zip, which the library's own
// createExcelFile uses, hands parts over 160 KB to a Web Worker, which Cloudflare Workers lack.

/** Characters XML 1.0 cannot hold (a control character a guest pasted): Excel would refuse the whole file. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it removes
const xmlText = (v: string) => v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

export async function bookingsXlsx(rows: readonly BookingFileRow[]): Promise<Uint8Array<ArrayBuffer>> {
  const workbook = new Workbook();
  const sheet = workbook.createWorksheet({ name: 'Бронирования' });
  const bold = workbook.getStyleSheet().createFormat({ font: { bold: true } }) as { id: number };
  sheet.setColumns(COLUMNS.map((c) => ({ width: c.width })));
  sheet.setData([
    COLUMNS.map((c) => ({ value: c.title, metadata: { style: bold.id } })),
    ...rows.map((r) =>
      COLUMNS.map((c) => {
        const v = cellOf(c, r);
        return typeof v === 'number' ? v : xmlText(v);
      }),
    ),
  ]);
  workbook.addWorksheet(sheet);
  const files = await workbook.generateFiles();
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([path, xml]) => [path.replace(/^\//, ''), strToU8(xml)])),
  ) as Uint8Array<ArrayBuffer>;
}
