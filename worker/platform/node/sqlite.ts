import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { DatabasePort } from '../ports.ts';

/**
 * The database port on Node: a SQLite file through Node's own `node:sqlite` (no native add-on to
 * build on the server), shaped like the part of D1 that drizzle's D1 driver uses. The same
 * drizzle queries and the same migrations then run on both targets.
 *
 * node:sqlite is synchronous: a statement or a whole batch runs without yielding to the event
 * loop, so a batch inside BEGIN IMMEDIATE … COMMIT is atomic, as a D1 batch is.
 */
export type SqliteFile = DatabasePort & {
  /** Runs SQL with several statements (migrations), like D1's exec. */
  exec(sql: string): void;
  /** A consistent copy of the live database in one file (for backups), taken while serving. */
  backupTo(file: string): void;
  close(): void;
  readonly path: string;
};

type Meta = { changes: number; last_row_id: number; duration: number; rows_read: number; rows_written: number; changed_db: boolean; size_after: number };

const toSqlite = (v: unknown): SQLInputValue => {
  if (v === undefined) throw new TypeError('D1_TYPE_ERROR: undefined is not a supported value');
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return v as SQLInputValue;
};

/** Errors read like D1's, so logs and any message checks agree across targets. */
function asD1Error(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`D1_ERROR: ${message}`, { cause: err });
}

class Statement {
  private readonly db: DatabaseSync;
  readonly sql: string;
  readonly params: SQLInputValue[];

  constructor(db: DatabaseSync, sql: string, params: SQLInputValue[] = []) {
    this.db = db;
    this.sql = sql;
    this.params = params;
  }

  bind(...values: unknown[]): Statement {
    return new Statement(this.db, this.sql, values.map(toSqlite));
  }

  /** Runs now (synchronously) and returns what D1's `all()` would. */
  allSync(): { success: true; results: Record<string, unknown>[]; meta: Meta } {
    const started = performance.now();
    try {
      const stmt = this.db.prepare(this.sql);
      if (stmt.columns().length === 0) {
        const r = stmt.run(...this.params);
        return { success: true, results: [], meta: this.meta(started, Number(r.changes), Number(r.lastInsertRowid)) };
      }
      const results = stmt.all(...this.params) as Record<string, unknown>[];
      return { success: true, results, meta: this.meta(started, 0, 0) };
    } catch (err) {
      throw asD1Error(err);
    }
  }

  private meta(started: number, changes: number, lastRowId: number): Meta {
    return { changes, last_row_id: lastRowId, duration: performance.now() - started, rows_read: 0, rows_written: changes, changed_db: changes > 0, size_after: 0 };
  }

  async all() {
    return this.allSync();
  }

  async run() {
    return this.allSync();
  }

  async first(column?: string) {
    const row = this.allSync().results[0];
    if (!row) return null;
    return column === undefined ? row : (row[column] ?? null);
  }

  async raw(options?: { columnNames?: boolean }) {
    try {
      const stmt = this.db.prepare(this.sql);
      const names = stmt.columns().map((c) => c.name);
      if (names.length === 0) {
        stmt.run(...this.params);
        return options?.columnNames ? [names] : [];
      }
      stmt.setReturnArrays(true);
      const rows = stmt.all(...this.params) as unknown as unknown[][];
      return options?.columnNames ? [names, ...rows] : rows;
    } catch (err) {
      throw asD1Error(err);
    }
  }
}

/** Opens (creating if needed) the SQLite file in WAL mode, so backups can read while it serves. */
export function openSqlite(file: string): SqliteFile {
  const db = new DatabaseSync(file, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  const port = {
    path: file,
    prepare: (sql: string) => new Statement(db, sql),
    async batch(statements: Statement[]) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const results = statements.map((s) => s.allSync());
        db.exec('COMMIT');
        return results;
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    },
    exec: (sql: string) => db.exec(sql),
    backupTo(target: string) {
      db.prepare('VACUUM INTO ?').run(target);
    },
    close: () => db.close(),
  };
  return port as unknown as SqliteFile;
}
