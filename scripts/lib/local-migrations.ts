import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './tools.ts';

/** Where drizzle-kit writes the migrations, the folder wrangler.toml names (`migrations_dir`). */
export const MIGRATIONS_DIR = path.join(ROOT, 'migrations');

/**
 * Applies to a local D1 (wrangler's getPlatformProxy) the migrations it has not had yet, as
 * `wrangler d1 migrations apply --local` does: the same files, the same `d1_migrations` record,
 * so either can follow the other. Done in the seeding's own session, which saves starting
 * wrangler once more (~8 s of every `npm start`). Each file is one D1 batch: all of it or none.
 */
export async function applyLocalD1Migrations(db: D1Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
      )`,
    )
    .run();
  const done = new Set((await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()).results.map((r) => r.name));
  const applied: string[] = [];
  for (const name of (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()) {
    if (done.has(name)) continue;
    // drizzle-kit ends each statement with a breakpoint marker: one prepared statement each.
    const statements = (await readFile(path.join(dir, name), 'utf8'))
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      await db.batch([...statements.map((s) => db.prepare(s)), db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name)]);
    } catch (err) {
      throw new Error(`Migration ${name} failed: ${err instanceof Error ? err.message : err}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}
