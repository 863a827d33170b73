import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNSTAMPED_TABLES } from '../../schema/tables.ts';
import { pendingMigrations } from '../../worker/platform/node/migrate.ts';

// The data stamp (schema/tables.ts dataStamp) is what lets both servers give a kept public read
// again; a table without its triggers would let a write go unseen. A table added later fails here
// until its triggers are written (or it is named in UNSTAMPED_TABLES, with the reason).

async function migrated(): Promise<DatabaseSync> {
  const db = new DatabaseSync(':memory:');
  for (const { statements } of await pendingMigrations(path.join(import.meta.dirname, '../../migrations'), []))
    db.exec(statements.join('\n'));
  return db;
}
const token = (db: DatabaseSync) =>
  (db.prepare('SELECT token FROM data_stamp WHERE id = 1').get() as { token: string } | undefined)?.token;

describe('data stamp', () => {
  it('should renew on insert, update and delete in every table except those public reads never read', async () => {
    const db = await migrated();
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    // The stamp's own triggers: other triggers guard data (one keeps a cabin that has bookings).
    const triggers = db
      .prepare("SELECT tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'data_stamp_%'")
      .all() as { tbl: string; sql: string }[];
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) {
      const on = triggers
        .filter((t) => t.tbl === table)
        .map((t) => /AFTER (INSERT|UPDATE|DELETE)/.exec(t.sql)?.[1])
        .sort();
      expect(on, table).toEqual(
        (UNSTAMPED_TABLES as readonly string[]).includes(table) ? [] : ['DELETE', 'INSERT', 'UPDATE'],
      );
    }
  });

  it('should take a new token under an upsert, and come back after the row was emptied', async () => {
    const db = await migrated();
    const first = token(db);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    const upsert = db.prepare(
      "INSERT INTO settings (key, value) VALUES ('heroTitle', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    upsert.run('"А"');
    const second = token(db);
    upsert.run('"Б"');
    expect(new Set([first, second, token(db)]).size).toBe(3);

    db.exec('DELETE FROM data_stamp');
    expect(token(db)).toBeUndefined();
    db.exec("DELETE FROM settings WHERE key = 'heroTitle'");
    expect(token(db)).toMatch(/^[0-9a-f]{16}$/);
    expect((db.prepare('SELECT count(*) AS n FROM data_stamp').get() as { n: number }).n).toBe(1);
  });
});
