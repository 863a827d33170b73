import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { DatabaseBusyError, type DatabasePort } from '../ports.ts';

/**
 * The database port on Node: a SQLite file through Node's own `node:sqlite` (no native add-on to
 * build on the server), shaped like the part of D1 that drizzle's D1 driver uses. The same
 * drizzle queries and the same migrations then run on both targets.
 *
 * node:sqlite is synchronous, and SQLite's own busy timeout waits inside the call: a write that
 * met another connection's lock (a backup, a second process) would stop every request of the
 * server with it. So the connection never waits (busy timeout 0); a statement that finds the
 * database locked is tried again after a pause on a timer, letting other requests run, until
 * `busyWaitMs` have passed; then it fails with DatabaseBusyError (503 with Retry-After).
 * The file is in WAL mode, so reads go on while another connection writes.
 *
 * A statement or a whole batch still runs without yielding once it has the database, so a batch
 * inside BEGIN IMMEDIATE … COMMIT is atomic, as a D1 batch is (a batch of selects only inside a
 * plain BEGIN: one snapshot, no write lock); a batch that meets the lock is rolled back and tried
 * again as a whole.
 */
export type SqliteFile = DatabasePort & {
  /** Runs SQL with several statements (migrations), like D1's exec; waits for a lock (at start-up, before serving). */
  exec(sql: string): void;
  /** A consistent copy of the live database in one file (for backups), taken while serving. */
  backupTo(file: string): void;
  close(): void;
  readonly path: string;
  /** Rows this connection has written since it opened (SQLite's total_changes): a fraction of a microsecond. */
  ownWrites(): number;
  /**
   * Changes when another connection (a second process, a restore) commits (PRAGMA data_version):
   * ~13 µs, as it reads the WAL's header. With ownWrites, equal values mean equal data.
   */
  othersCommits(): number;
};

export type SqliteOptions = {
  /** How long a statement keeps trying while another connection holds the lock. */
  busyWaitMs?: number;
};

/** Long enough for a backup or a short import to finish; a visitor waits no longer than this. */
const BUSY_WAIT_MS = 5000;
/** What exec() (migrations, backups) waits for a lock inside SQLite, as before. */
const EXEC_BUSY_TIMEOUT_MS = 5000;
/** Pauses between tries: short at first, so a write lands soon after the lock is gone. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;
/** SQLITE_BUSY and its extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT). */
const SQLITE_BUSY = 5;

type Meta = {
  changes: number;
  last_row_id: number;
  duration: number;
  rows_read: number;
  rows_written: number;
  changed_db: boolean;
  size_after: number;
};

const toSqlite = (v: unknown): SQLInputValue => {
  if (v === undefined) throw new TypeError('D1_TYPE_ERROR: undefined is not a supported value');
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return v as SQLInputValue;
};

const isBusy = (err: unknown) =>
  typeof (err as { errcode?: unknown })?.errcode === 'number' &&
  ((err as { errcode: number }).errcode & 0xff) === SQLITE_BUSY;

/** Errors read like D1's, so logs and any message checks agree across targets. */
function asD1Error(err: unknown): Error {
  if (err instanceof DatabaseBusyError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`D1_ERROR: ${message}`, { cause: err });
}

/** A plain SELECT (drizzle writes its selects so); a WITH may end in a write, so it counts as one. */
const isRead = (s: Statement) => /^\s*select\b/i.test(s.sql);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` now, and while the database is locked again after a pause, until `waitMs` have passed. */
async function whenUnlocked<T>(waitMs: number, attempt: () => T): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (let wait = FIRST_PAUSE_MS; ; wait = Math.min(wait * 2, LONGEST_PAUSE_MS)) {
    try {
      return attempt();
    } catch (err) {
      if (!isBusy(err)) throw asD1Error(err);
      if (performance.now() >= deadline) throw new DatabaseBusyError({ cause: err });
      await pause(wait);
    }
  }
}

class Statement {
  private readonly db: DatabaseSync;
  private readonly waitMs: number;
  readonly sql: string;
  readonly params: SQLInputValue[];

  constructor(db: DatabaseSync, waitMs: number, sql: string, params: SQLInputValue[] = []) {
    this.db = db;
    this.waitMs = waitMs;
    this.sql = sql;
    this.params = params;
  }

  bind(...values: unknown[]): Statement {
    return new Statement(this.db, this.waitMs, this.sql, values.map(toSqlite));
  }

  /** Runs now (synchronously) and returns what D1's `all()` would; SQLite's errors pass as they are. */
  allSync(): { success: true; results: Record<string, unknown>[]; meta: Meta } {
    const started = performance.now();
    const stmt = this.db.prepare(this.sql);
    if (stmt.columns().length === 0) {
      const r = stmt.run(...this.params);
      return { success: true, results: [], meta: this.meta(started, Number(r.changes), Number(r.lastInsertRowid)) };
    }
    const results = stmt.all(...this.params) as Record<string, unknown>[];
    return { success: true, results, meta: this.meta(started, 0, 0) };
  }

  private meta(started: number, changes: number, lastRowId: number): Meta {
    return {
      changes,
      last_row_id: lastRowId,
      duration: performance.now() - started,
      rows_read: 0,
      rows_written: changes,
      changed_db: changes > 0,
      size_after: 0,
    };
  }

  all() {
    return whenUnlocked(this.waitMs, () => this.allSync());
  }

  run() {
    return this.all();
  }

  async first(column?: string) {
    const row = (await this.all()).results[0];
    if (!row) return null;
    return column === undefined ? row : (row[column] ?? null);
  }

  raw(options?: { columnNames?: boolean }) {
    return whenUnlocked(this.waitMs, () => {
      const stmt = this.db.prepare(this.sql);
      const names = stmt.columns().map((c) => c.name);
      if (names.length === 0) {
        stmt.run(...this.params);
        return options?.columnNames ? [names] : [];
      }
      stmt.setReturnArrays(true);
      const rows = stmt.all(...this.params) as unknown as unknown[][];
      return options?.columnNames ? [names, ...rows] : rows;
    });
  }
}

/** Opens (creating if needed) the SQLite file in WAL mode, so reads and backups go on while it writes. */
export function openSqlite(file: string, options: SqliteOptions = {}): SqliteFile {
  const waitMs = options.busyWaitMs ?? BUSY_WAIT_MS;
  const db = new DatabaseSync(file, { timeout: EXEC_BUSY_TIMEOUT_MS });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  /** Runs SQL that may wait inside SQLite for a lock: only at start-up or in a backup, never per request. */
  const waiting = <T>(run: () => T): T => {
    db.exec(`PRAGMA busy_timeout = ${EXEC_BUSY_TIMEOUT_MS}`);
    try {
      return run();
    } finally {
      db.exec('PRAGMA busy_timeout = 0');
    }
  };
  db.exec('PRAGMA busy_timeout = 0');
  const ownChanges = db.prepare('SELECT total_changes()');
  const othersCommits = db.prepare('PRAGMA data_version');
  ownChanges.setReturnArrays(true);
  othersCommits.setReturnArrays(true);
  const port = {
    path: file,
    prepare: (sql: string) => new Statement(db, waitMs, sql),
    batch: (statements: Statement[]) =>
      whenUnlocked(waitMs, () => {
        // A batch of reads (a route's data in one round trip) sees one moment of the data, as
        // D1's does, without taking the write lock: another connection's writer does not make it
        // wait, nor it the writer. A batch with any write takes the lock at once.
        db.exec(statements.every(isRead) ? 'BEGIN' : 'BEGIN IMMEDIATE');
        try {
          const results = statements.map((s) => s.allSync());
          db.exec('COMMIT');
          return results;
        } catch (err) {
          // Nothing of the batch stays: it is tried again whole (locked) or fails whole.
          if (db.isTransaction) db.exec('ROLLBACK');
          throw err;
        }
      }),
    exec: (sql: string) => waiting(() => db.exec(sql)),
    backupTo(target: string) {
      waiting(() => db.prepare('VACUUM INTO ?').run(target));
    },
    close: () => db.close(),
    ownWrites: () => (ownChanges.get() as unknown as [number])[0],
    othersCommits: () => (othersCommits.get() as unknown as [number])[0],
  };
  return port as unknown as SqliteFile;
}
