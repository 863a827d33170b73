import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqliteFile } from './sqlite.ts';

/**
 * Applies the SQL files of `migrations/` (written by drizzle-kit, the same files wrangler applies
 * to D1) that this database has not had yet, each in one transaction. The record is kept in
 * `d1_migrations`, the table wrangler keeps, so a backup reads the same on both targets.
 */
export async function applyMigrations(db: SqliteFile, dir: string): Promise<string[]> {
  db.exec(`CREATE TABLE IF NOT EXISTS d1_migrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
  )`);
  const done = new Set(
    ((await db.prepare('SELECT name FROM d1_migrations').all()).results as { name: string }[]).map((r) => r.name),
  );
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const name of files) {
    if (done.has(name)) continue;
    const sql = await readFile(path.join(dir, name), 'utf8');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(sql.replaceAll('--> statement-breakpoint', ''));
      await db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name).run();
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`Migration ${name} failed: ${err instanceof Error ? err.message : err}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}
