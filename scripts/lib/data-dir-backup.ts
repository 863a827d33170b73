import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pipeline } from 'node:stream/promises';

/** The names `npm run serve` uses inside DATA_DIR (worker/platform/node/bindings.ts). */
export const DB_FILE = 'kaspiy.sqlite';
const MEDIA = 'media';
const KIND = 'kaspiy-self-hosted';

/** One file of a backup, by its path inside the folder ('kaspiy.sqlite', 'media/<key>'). */
export type ManifestFile = { path: string; size: number; sha256: string };
/**
 * manifest.json, written last: a folder (or a remote copy) without it is not a finished backup.
 * `files` (absent in backups made before it existed) lets a restore check every byte it brings back.
 */
export type Manifest = {
  kind: typeof KIND;
  createdAt: string;
  database: string;
  photos: number;
  bytes: number;
  files?: ManifestFile[];
};
export const MANIFEST = 'manifest.json';

/** Size and SHA-256 of a file, read as a stream (the database may be large). */
export async function digestFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { size: (await stat(file)).size, sha256: hash.digest('hex') };
}

/** Reads a backup's manifest; a folder without one (or with another kind) is refused. */
export async function readManifest(from: string): Promise<Manifest> {
  const text = await readFile(path.join(from, MANIFEST), 'utf8').catch(() => null);
  const manifest = text === null ? null : (JSON.parse(text) as Manifest);
  if (manifest?.kind !== KIND || manifest.database !== DB_FILE)
    throw new Error(`${from} is not a finished self-hosted backup (no ${KIND} ${MANIFEST})`);
  return manifest;
}

/** Checks every file the manifest lists against its size and SHA-256; throws naming the first that differs. */
export async function verifyBackup(from: string, manifest: Manifest): Promise<void> {
  for (const f of manifest.files ?? []) {
    const got = await digestFile(path.join(from, f.path)).catch(() => null);
    if (!got) throw new Error(`${f.path} is missing from the backup ${from}`);
    if (got.size !== f.size || got.sha256 !== f.sha256) {
      throw new Error(
        `${f.path} in the backup ${from} is damaged (${got.size} bytes, expected ${f.size}; SHA-256 differs): take another backup`,
      );
    }
  }
}

const stampNow = () => new Date().toISOString().slice(0, 23).replace(/[:T.]/g, '-');

/**
 * A consistent copy of a self-hosted DATA_DIR, taken while the server runs: the database by
 * `VACUUM INTO` from a second connection (SQLite gives it one point in time, WAL or not), then
 * the photos (written once under new keys, never changed, so a copy after the database holds
 * every photo it names). The built site is not kept: the server rebuilds it from the data.
 */
export async function backupDataDir(
  dataDir: string,
  outRoot: string,
  opts: { keep?: number } = {},
): Promise<{ dir: string; manifest: Manifest }> {
  const dbFile = path.join(dataDir, DB_FILE);
  if (!(await stat(dbFile).catch(() => null))?.isFile())
    throw new Error(`No database at ${dbFile}: is DATA_DIR right?`);
  const dir = path.join(outRoot, `${stampNow()}-self-hosted`);
  await mkdir(path.join(dir, MEDIA), { recursive: true });
  const db = new DatabaseSync(dbFile, { timeout: 10_000 });
  try {
    db.prepare('VACUUM INTO ?').run(path.join(dir, DB_FILE));
  } finally {
    db.close();
  }
  const files: ManifestFile[] = [{ path: DB_FILE, ...(await digestFile(path.join(dir, DB_FILE))) }];
  let photos = 0;
  let bytes = 0;
  for (const name of await readdir(path.join(dataDir, MEDIA)).catch(() => [] as string[])) {
    if (name.startsWith('.')) continue; // a photo still being written
    const src = path.join(dataDir, MEDIA, name);
    const s = await stat(src);
    if (!s.isFile()) continue;
    await copyFile(src, path.join(dir, MEDIA, name));
    files.push({ path: `${MEDIA}/${name}`, ...(await digestFile(path.join(dir, MEDIA, name))) });
    photos += 1;
    bytes += s.size;
  }
  const manifest: Manifest = {
    kind: KIND,
    createdAt: new Date().toISOString(),
    database: DB_FILE,
    photos,
    bytes,
    files,
  };
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
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

/** Refuses a DATA_DIR that already has a database, unless `force`: a restore replaces it. */
export async function assertRestorable(dataDir: string, opts: { force?: boolean } = {}): Promise<void> {
  if ((await stat(path.join(dataDir, DB_FILE)).catch(() => null)) && !opts.force) {
    throw new Error(`${dataDir} already has a database. Stop the server, then run again with --force to replace it.`);
  }
}

/**
 * Puts a backup into DATA_DIR for `npm run serve` (stopped): the database and the photos; the
 * site is rebuilt at the next start. Refuses a DATA_DIR that has a database unless `force`, and a
 * backup whose files differ from its manifest.
 */
export async function restoreDataDir(from: string, dataDir: string, opts: { force?: boolean } = {}): Promise<Manifest> {
  const manifest = await readManifest(from);
  await assertRestorable(dataDir, opts);
  const target = path.join(dataDir, DB_FILE);
  // Nothing in DATA_DIR is touched until every byte of the backup is known to be right.
  await verifyBackup(from, manifest);
  await mkdir(path.join(dataDir, MEDIA), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) await rm(`${target}${suffix}`, { force: true });
  await rm(path.join(dataDir, 'site'), { recursive: true, force: true });
  await copyFile(path.join(from, manifest.database), target);
  for (const name of await readdir(path.join(from, MEDIA)))
    await copyFile(path.join(from, MEDIA, name), path.join(dataDir, MEDIA, name));
  return manifest;
}
