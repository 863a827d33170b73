import path from 'node:path';
import { MIGRATIONS_TABLE, RECORD_MIGRATION, pendingMigrations } from '../../worker/platform/node/migrate.ts';
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
  await db.prepare(MIGRATIONS_TABLE).run();
  const done = (await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()).results.map((r) => r.name);
  const applied: string[] = [];
  for (const { name, statements } of await pendingMigrations(dir, done)) {
    try {
      await db.batch([...statements.map((s) => db.prepare(s)), db.prepare(RECORD_MIGRATION).bind(name)]);
    } catch (err) {
      throw new Error(`Migration ${name} failed: ${err instanceof Error ? err.message : err}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}
