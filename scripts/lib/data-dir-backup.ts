import { DatabaseSync } from 'node:sqlite';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The names `npm run serve` uses inside DATA_DIR (worker/platform/node/bindings.ts). */
export const DB_FILE = 'kaspiy.sqlite';
const MEDIA = 'media';
const KIND = 'kaspiy-self-hosted';

export type Manifest = { kind: typeof KIND; createdAt: string; database: string; photos: number; bytes: number };

const stampNow = () => new Date().toISOString().slice(0, 23).replace(/[:T.]/g, '-');

/**
 * A consistent copy of a self-hosted DATA_DIR, taken while the server runs: the database by
 * `VACUUM INTO` from a second connection (SQLite gives it one point in time, WAL or not), then
 * the photos (written once under new keys, never changed, so a copy after the database holds
 * every photo it names). The built site is not kept: the server rebuilds it from the data.
 */
export async function backupDataDir(dataDir: string, outRoot: string, opts: { keep?: number } = {}): Promise<{ dir: string; manifest: Manifest }> {
  const dbFile = path.join(dataDir, DB_FILE);
  if (!(await stat(dbFile).catch(() => null))?.isFile()) throw new Error(`No database at ${dbFile}: is DATA_DIR right?`);
  const dir = path.join(outRoot, `${stampNow()}-self-hosted`);
  await mkdir(path.join(dir, MEDIA), { recursive: true });
  const db = new DatabaseSync(dbFile, { timeout: 10_000 });
  try {
    db.prepare('VACUUM INTO ?').run(path.join(dir, DB_FILE));
  } finally {
    db.close();
  }
  let photos = 0;
  let bytes = 0;
  for (const name of await readdir(path.join(dataDir, MEDIA)).catch(() => [] as string[])) {
    if (name.startsWith('.')) continue; // a photo still being written
    const src = path.join(dataDir, MEDIA, name);
    const s = await stat(src);
    if (!s.isFile()) continue;
    await copyFile(src, path.join(dir, MEDIA, name));
    photos += 1;
    bytes += s.size;
  }
  const manifest: Manifest = { kind: KIND, createdAt: new Date().toISOString(), database: DB_FILE, photos, bytes };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (opts.keep) await pruneBackups(outRoot, opts.keep);
  return { dir, manifest };
}

/** Keeps the newest `keep` self-hosted backups in `outRoot` and removes the older ones. */
export async function pruneBackups(outRoot: string, keep: number): Promise<string[]> {
  const names = (await readdir(outRoot)).filter((n) => n.endsWith('-self-hosted')).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await rm(path.join(outRoot, name), { recursive: true, force: true });
  return old;
}

/**
 * Puts a backup into DATA_DIR for `npm run serve` (stopped): the database and the photos; the
 * site is rebuilt at the next start. Refuses a DATA_DIR that has a database unless `force`.
 */
export async function restoreDataDir(from: string, dataDir: string, opts: { force?: boolean } = {}): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(from, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.kind !== KIND) throw new Error(`${from} is not a self-hosted backup (no ${KIND} manifest)`);
  const target = path.join(dataDir, DB_FILE);
  if ((await stat(target).catch(() => null)) && !opts.force) {
    throw new Error(`${dataDir} already has a database. Stop the server, then run again with --force to replace it.`);
  }
  await mkdir(path.join(dataDir, MEDIA), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) await rm(`${target}${suffix}`, { force: true });
  await rm(path.join(dataDir, 'site'), { recursive: true, force: true });
  await copyFile(path.join(from, manifest.database), target);
  for (const name of await readdir(path.join(from, MEDIA))) await copyFile(path.join(from, MEDIA, name), path.join(dataDir, MEDIA, name));
  return manifest;
}
