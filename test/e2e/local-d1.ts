import { readdir } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { inject } from 'vitest';

/** How long a statement waits for workerd's lock on the file before it fails. */
const LOCKED_WAIT_MS = 10_000;

/**
 * Runs a statement on every database of the e2e stack's local D1 (wrangler dev's SQLite files)
 * that has the table it names, and answers how many rows it changed: for putting back what the
 * stack cannot be asked to through its API.
 */
export async function runInLocalD1(sql: string, ...params: (string | number)[]): Promise<number> {
  const dir = path.join(inject('e2eStateDir'), 'v3/d1/miniflare-D1DatabaseObject');
  let changed = 0;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.sqlite'))) {
    // workerd holds the same file: a write of its own (the schedule's tick) locks it for a moment.
    const db = new DatabaseSync(path.join(dir, file), { timeout: LOCKED_WAIT_MS });
    try {
      changed += Number(db.prepare(sql).run(...params).changes);
    } catch (err) {
      // Another database of the stack (without that table); any other failure is the test's.
      if (!/no such table/.test(err instanceof Error ? err.message : String(err))) throw err;
    } finally {
      db.close();
    }
  }
  return changed;
}

/**
 * Forgets the booking requests counted against this machine's address (10 an hour, as for any
 * visitor): every journey books from 127.0.0.1, so one that books several puts its count back.
 */
export const forgetBookingThrottle = () => runInLocalD1("DELETE FROM rate_limits WHERE key LIKE 'booking:%'");
