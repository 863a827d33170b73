import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withLocalBindings } from '../../scripts/lib/local-bindings.ts';
import { applyLocalD1Migrations, MIGRATIONS_DIR } from '../../scripts/lib/local-migrations.ts';
import { run } from '../../scripts/lib/tools.ts';

// `npm start` migrates its local D1 itself (scripts/lib/local-migrations.ts) rather than through
// `wrangler d1 migrations apply`: the two must agree on what has been applied, or an owner who runs
// wrangler's command afterwards would run a migration twice.
describe('the local D1 migrations of npm start', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('should create every table, record each file as wrangler does, apply nothing twice and leave wrangler nothing to apply', {
    timeout: 60_000,
  }, async () => {
    const persistTo = await mkdtemp(path.join(tmpdir(), 'kaspiy локальная база '));
    dirs.push(persistTo);
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();

    const { first, second, tables } = await withLocalBindings(persistTo, async ({ DB }) => ({
      first: await applyLocalD1Migrations(DB),
      second: await applyLocalD1Migrations(DB),
      tables: (
        await DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>()
      ).results.map((r) => r.name),
    }));
    expect(first).toEqual(files);
    expect(second).toEqual([]);
    expect(tables).toEqual(expect.arrayContaining(['d1_migrations', 'cabins', 'bookings', 'reviews', 'settings']));

    const out = await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], {
      quiet: true,
      env: { ...process.env, CI: 'true' },
    });
    expect(out).toContain('No migrations to apply');
  });
});
