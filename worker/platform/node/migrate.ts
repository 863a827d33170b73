import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqliteFile } from './sqlite.ts';

/**
 * The record of applied migrations that wrangler keeps in D1, kept the same way here and in
 * `npm start`'s local D1 (scripts/lib/local-migrations.ts), so a backup reads the same on both
 * targets and either tool can follow the other.
 */
export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
  )`;
export const RECORD_MIGRATION = 'INSERT INTO d1_migrations (name) VALUES (?)';

/**
 * The SQL files of `dir` (written by drizzle-kit, the same files wrangler applies to D1) not in
 * `applied`, in order, each as its statements: drizzle-kit ends each one with a breakpoint marker.
 */
export async function pendingMigrations(
  dir: string,
  applied: Iterable<string>,
): Promise<{ name: string; statements: string[] }[]> {
  const done = new Set(applied);
  const names = (await readdir(dir)).filter((f) => f.endsWith('.sql') && !done.has(f)).sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      statements: (await readFile(path.join(dir, name), 'utf8'))
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean),
    })),
  );
}

/** Applies the migrations this database has not had yet, each in one transaction. */
export async function applyMigrations(db: SqliteFile, dir: string): Promise<string[]> {
  db.exec(MIGRATIONS_TABLE);
  const done = ((await db.prepare('SELECT name FROM d1_migrations').all()).results as { name: string }[]).map(
    (r) => r.name,
  );
  const applied: string[] = [];
  for (const { name, statements } of await pendingMigrations(dir, done)) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(statements.join('\n'));
      await db.prepare(RECORD_MIGRATION).bind(name).run();
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`Migration ${name} failed: ${err instanceof Error ? err.message : err}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}
