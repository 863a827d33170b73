import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withLocalBindings } from '../../scripts/lib/local-bindings.ts';
import { applyLocalD1Migrations, MIGRATIONS_DIR } from '../../scripts/lib/local-migrations.ts';
import { applyMigrations } from '../../worker/platform/node/migrate.ts';
import { openSqlite } from '../../worker/platform/node/sqlite.ts';

// migrations/0012_money_kept.sql copies `payments` to take the cascade off its booking: a site
// updated in place keeps every payment (amounts, ЮKassa's ids, refunds) and its indexes, and from
// then on the database refuses to delete a paid booking or a cabin with bookings. Applied as each
// runtime applies it: the Node server's migrate.ts (one transaction, foreign keys on) and a D1
// batch, as wrangler does (the local D1 of `npm start`).

const MIGRATION = '0012_money_kept.sql';
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A folder of the migrations that came before this one: the database of a site not yet updated. */
async function migrationsBefore(): Promise<string> {
  const dir = await tempDir('kaspiy-migrations-before-');
  for (const f of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < MIGRATION))
    await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  return dir;
}

// A cabin with a confirmed booking paid in two parts (one of them partly refunded) and an
// abandoned payment, and a cabin with only an unpaid request.
const SEED = [
  `INSERT INTO cabins (id, name, description, price_per_night) VALUES (1, 'Домик у моря', 'У моря', 5000), (2, 'Лесной домик', 'В лесу', 4000)`,
  `INSERT INTO bookings (id, cabin_id, check_in, check_out, nights, guests, total, name, phone, channel, status, created_at, updated_at)
   VALUES (10, 1, '2025-07-01', '2025-07-04', 3, 2, 15000, 'Анна', '+7 928 555-12-34', 'whatsapp', 'confirmed', '2025-06-01T09:00:00.000Z', '2025-06-01T09:00:00.000Z'),
          (11, 2, '2025-08-01', '2025-08-03', 2, 2, 8000, 'Иван', '+7 928 555-00-00', 'phone', 'new', '2025-06-02T09:00:00.000Z', '2025-06-02T09:00:00.000Z')`,
  `INSERT INTO payments (id, booking_id, amount, status, confirmation_url, refund_id, refund_status, refund_reason, refund_amount, kind, settlement_receipt, created_at, updated_at)
   VALUES ('2f1a-pre', 10, 450000, 'succeeded', '', 'rf-1', 'succeeded', 'guest', 150000, 'prepayment', 'sent', '2025-06-01T09:01:00.000Z', '2025-06-03T10:00:00.000Z'),
          ('2f1b-rest', 10, 1050000, 'succeeded', '', NULL, NULL, NULL, NULL, 'balance', '', '2025-06-20T09:00:00.000Z', '2025-06-20T09:00:00.000Z'),
          ('2f1c-gone', 10, 450000, 'canceled', 'https://yoomoney.ru/checkout/x', NULL, NULL, NULL, NULL, 'prepayment', '', '2025-05-31T09:00:00.000Z', '2025-05-31T09:10:00.000Z')`,
];

/** What a database must still hold, and refuse, after the migration; `run` runs one statement. */
async function expectKept(run: (sql: string) => Promise<unknown[]>, before: unknown[]) {
  expect(await run('SELECT * FROM payments ORDER BY id')).toEqual(before);
  expect(
    await run(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ),
  ).toEqual([{ name: 'payments_booking_idx' }, { name: 'payments_money_idx' }]);
  await expect(run('DELETE FROM bookings WHERE id = 10')).rejects.toThrow(/FOREIGN KEY/i);
  await expect(run('DELETE FROM cabins WHERE id = 1')).rejects.toThrow(/cabin has bookings/);
  await expect(run('DELETE FROM cabins WHERE id = 2')).rejects.toThrow(/cabin has bookings/);
  expect(await run('SELECT count(*) AS n FROM payments')).toEqual([{ n: 3 }]);
  // An unpaid request still goes, and then its cabin.
  await run('DELETE FROM bookings WHERE id = 11');
  await run('DELETE FROM cabins WHERE id = 2');
  expect(await run('SELECT id FROM cabins')).toEqual([{ id: 1 }]);
}

describe('the migration that keeps payments', () => {
  it('should keep every payment and index on the Node server, and the database refuse to delete paid bookings and booked cabins', async () => {
    const db = openSqlite(path.join(await tempDir('kaspiy-money-node-'), 'kaspiy.sqlite'));
    try {
      await applyMigrations(db, await migrationsBefore());
      for (const statement of SEED) await db.prepare(statement).run();
      const run = async (sql: string) => (await db.prepare(sql).all()).results;
      const before = await run('SELECT * FROM payments ORDER BY id');
      expect(before).toHaveLength(3);
      expect(await applyMigrations(db, MIGRATIONS_DIR)).toContain(MIGRATION);
      await expectKept(run, before);
    } finally {
      db.close();
    }
  });

  it('should do the same on D1, each file one batch as wrangler applies it', { timeout: 60_000 }, async () => {
    await withLocalBindings(await tempDir('kaspiy-money-d1-'), async ({ DB }) => {
      await applyLocalD1Migrations(DB, await migrationsBefore());
      await DB.batch(SEED.map((s) => DB.prepare(s)));
      const run = async (sql: string) => (await DB.prepare(sql).all()).results;
      const before = await run('SELECT * FROM payments ORDER BY id');
      expect(before).toHaveLength(3);
      expect(await applyLocalD1Migrations(DB)).toContain(MIGRATION);
      await expectKept(run, before);
    });
  });
});
