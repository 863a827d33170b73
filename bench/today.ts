// «Сегодня» at 150 cabins on the self-hosted server: a year of back-to-back stays in every cabin
// (about fifty arrivals, fifty departures and a hundred and fifty stays on the day), a part of them
// paid, each departure's cleaning and the owner's own tasks, one owner asking one request at a time
// as the tab opens. The bench's `today` stage (self-hosted), or alone with `npx node bench/today.ts`,
// which prints p50/p95 and whether it keeps its budget (BUDGETS.todayP95Ms). Its data is its own (a
// temporary DATA_DIR).
import { addDays, todayInMoscow } from '../schema/dates.ts';
import { BUDGETS } from './budgets.ts';
import { serialLatency, type SerialLatency } from './latency.ts';
import { startTempServer } from './temp-server.ts';

const PASSWORD = 'bench-today-password';
/** 150 cabins, each with 3-night stays back to back from half a year before the day to half a year after. */
export const TODAY_SCALE = { cabins: 150, daysAround: 180, nights: 3, ownerTasks: 40 } as const;

export function todaySeedSql(today: string, scale = TODAY_SCALE): string {
  const { cabins, daysAround, nights, ownerTasks } = scale;
  const stays = Math.floor((2 * daysAround) / nights);
  const first = addDays(today, -daysAround);
  const at = '2026-01-01T00:00:00.000Z';
  return `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${cabins})
    INSERT INTO cabins (name, description, price_per_night) SELECT 'Домик ' || i, 'Описание', 4000 FROM n;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${cabins}),
      s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < ${stays - 1})
    INSERT INTO bookings (cabin_id, check_in, check_out, nights, guests, total, name, phone, email, channel, status, guest_token, created_at, updated_at)
    SELECT c.i, date('${first}', '+' || (c.i % ${nights} + s.k * ${nights}) || ' days'),
      date('${first}', '+' || (c.i % ${nights} + s.k * ${nights} + ${nights}) || ' days'), ${nights}, 2, 12000,
      'Гость ' || c.i || '-' || s.k, '+7 900 000-00-00', '', 'whatsapp', 'confirmed', lower(hex(randomblob(18))), '${at}', '${at}'
    FROM c, s;
    INSERT INTO payments (id, booking_id, amount, status, created_at, updated_at)
    SELECT 'bench-' || id, id, 360000, 'succeeded', '${at}', '${at}' FROM bookings WHERE id % 2 = 0;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ownerTasks})
    INSERT INTO tasks (cabin_id, due, kind, note, done, created_at, updated_at)
    SELECT 1 + i * 7 % ${cabins}, date('${today}', '+' || (i % 2) || ' days'), CASE WHEN i % 2 = 0 THEN 'repair' ELSE 'other' END,
      'Задача ' || i, 0, '${at}', '${at}' FROM n;`;
}

export type TodayResult = {
  scale: typeof TODAY_SCALE;
  bookings: number;
  seedS: number;
  arrivals: number;
  departures: number;
  tasks: number;
  today: SerialLatency;
};

export async function measureToday(requests = 40, log: (line: string) => void = console.log): Promise<TodayResult> {
  const { server, close } = await startTempServer('bench-today', { adminPassword: PASSWORD });
  try {
    const started = performance.now();
    server.storage.db.exec(todaySeedSql(todayInMoscow()));
    const seedS = (performance.now() - started) / 1000;
    const bookings = (await server.storage.db.prepare('SELECT count(*) AS n FROM bookings').first<number>('n')) ?? 0;
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`Login failed: ${login.status}`);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const url = `${server.url}/api/admin/today`;
    const first = await fetch(url, { headers: { cookie } });
    if (first.status !== 200) throw new Error(`GET /api/admin/today answered ${first.status}`);
    const day = (await first.json()) as { arrivals: unknown[]; departures: unknown[]; tasks: unknown[] };
    log(
      `Today: ${TODAY_SCALE.cabins} cabins, ${bookings} bookings seeded in ${seedS.toFixed(1)} s; the day has ` +
        `${day.arrivals.length} arrivals, ${day.departures.length} departures, ${day.tasks.length} tasks (two days)`,
    );
    const today = await serialLatency(url, { count: requests, min: requests, budgetMs: 60_000, warmup: 3 }, { cookie });
    log(`  «Сегодня»: p50 ${today.p50.toFixed(0)} ms, p95 ${today.p95.toFixed(0)} ms`);
    return {
      scale: TODAY_SCALE,
      bookings,
      seedS,
      arrivals: day.arrivals.length,
      departures: day.departures.length,
      tasks: day.tasks.length,
      today,
    };
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const r = await measureToday();
  console.log(
    `today p95: ${r.today.p95.toFixed(0)} ms (budget ${BUDGETS.todayP95Ms} ms): ${r.today.p95 <= BUDGETS.todayP95Ms ? 'kept' : 'MISSED'}`,
  );
}
