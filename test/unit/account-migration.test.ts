import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingMigrations } from '../../worker/platform/node/migrate.ts';

// migrations/0010_account.sql moves the single admin of admin_account into `users` as the owner
//: a site updated in place must still let its owner in with the login and password
// they had, at the same admin path.

const DIR = path.join(import.meta.dirname, '../../migrations');

describe('the account migration', () => {
  it('should make the old admin the owner with the same login and password hash, keep the admin path and end old sessions', async () => {
    const db = new DatabaseSync(':memory:');
    db.exec('PRAGMA foreign_keys = ON');
    const all = await pendingMigrations(DIR, []);
    const at = all.findIndex((m) => m.name === '0010_account.sql');
    expect(at).toBeGreaterThan(0);
    for (const { statements } of all.slice(0, at)) db.exec(statements.join('\n'));
    db.prepare(
      "INSERT INTO admin_account (id, username, password_hash, admin_path) VALUES (1, 'хозяин', 'pbkdf2-sha256$1000$c2FsdA==$aGFzaA==', 'tayna-42')",
    ).run();
    db.prepare("INSERT INTO admin_sessions (token_hash, created_at, expires_at) VALUES ('abc', 1, 2)").run();

    db.exec('BEGIN');
    for (const { statements } of all.slice(at)) db.exec(statements.join('\n'));
    db.exec('COMMIT');

    expect(
      db.prepare('SELECT id, username, password_hash, role, totp_secret, recovery_codes FROM users').all(),
    ).toEqual([
      {
        id: 1,
        username: 'хозяин',
        password_hash: 'pbkdf2-sha256$1000$c2FsdA==$aGFzaA==',
        role: 'owner',
        totp_secret: null,
        recovery_codes: '[]',
      },
    ]);
    expect(db.prepare('SELECT * FROM admin_account').all()).toEqual([{ id: 1, admin_path: 'tayna-42' }]);
    expect(db.prepare('SELECT count(*) AS n FROM admin_sessions').get()).toEqual({ n: 0 });
    // A new person gets the next id, never the owner's.
    db.prepare(
      "INSERT INTO users (username, password_hash, role, created_at) VALUES ('manager', 'x', 'manager', 1)",
    ).run();
    expect(db.prepare("SELECT id FROM users WHERE username = 'manager'").get()).toEqual({ id: 2 });
  });

  it('should leave a database that never had an admin without anyone', async () => {
    const db = new DatabaseSync(':memory:');
    for (const { statements } of await pendingMigrations(DIR, [])) db.exec(statements.join('\n'));
    expect(db.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 0 });
  });
});
