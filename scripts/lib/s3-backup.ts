import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST, readManifest, verifyBackup, type Manifest } from './data-dir-backup.ts';
import { S3BackupError, type S3Store } from './s3-store.ts';

/**
 * A self-hosted backup folder in a bucket: `<prefix><folder>/kaspiy.sqlite`, `…/media/<key>`
 * and `…/manifest.json`, the same layout as on disk. manifest.json goes up last and is deleted
 * first, so a copy cut short (or half deleted) never looks finished: restores and the count of
 * copies to keep only see folders that have it.
 */
const SUFFIX = '-self-hosted';
const PARALLEL = 4;

const typeOf = (file: string) =>
  ({
    jpg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    json: 'application/json',
    sqlite: 'application/vnd.sqlite3',
  })[file.split('.').pop()!] ?? 'application/octet-stream';

/** Runs `work` over `items`, a few at a time; the first failure stops the rest. */
async function eachLimited<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      try {
        while (!failed && next < items.length) await work(items[next++]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }),
  );
}

/** Uploads a finished local backup folder; manifest.json last. */
export async function uploadBackup(store: S3Store, dir: string): Promise<{ name: string; manifest: Manifest }> {
  const manifest = await readManifest(dir);
  if (!manifest.files)
    throw new S3BackupError(
      `в ${dir} нет списка файлов в manifest.json (копия старого образца): сделайте новую копию.`,
    );
  const name = path.basename(dir);
  const base = `${store.settings.prefix}${name}/`;
  await eachLimited(manifest.files, async (f) =>
    store.put(`${base}${f.path}`, await readFile(path.join(dir, f.path)), typeOf(f.path)),
  );
  await store.put(`${base}${MANIFEST}`, await readFile(path.join(dir, MANIFEST)), typeOf(MANIFEST));
  return { name, manifest };
}

export type RemoteBackups = {
  /** Folders with a manifest.json, oldest first. */
  finished: string[];
  /** Folders without one: cut short, or being deleted. */
  unfinished: string[];
  keysOf: Map<string, string[]>;
};

/** The backup folders under the prefix, from one listing. */
export async function listRemoteBackups(store: S3Store): Promise<RemoteBackups> {
  const { prefix } = store.settings;
  const keysOf = new Map<string, string[]>();
  for (const key of await store.list(prefix)) {
    const [folder] = key.slice(prefix.length).split('/');
    if (!folder?.endsWith(SUFFIX)) continue; // not ours
    keysOf.set(folder, [...(keysOf.get(folder) ?? []), key]);
  }
  const names = [...keysOf.keys()].sort();
  const done = (n: string) => keysOf.get(n)!.includes(`${prefix}${n}/${MANIFEST}`);
  return { finished: names.filter(done), unfinished: names.filter((n) => !done(n)), keysOf };
}

/**
 * Keeps the newest `keep` finished backups, and removes what failed uploads left behind
 * (unfinished folders older than the newest finished one). Returns the folders removed.
 */
export async function pruneRemoteBackups(store: S3Store, keep: number): Promise<string[]> {
  const { finished, unfinished, keysOf } = await listRemoteBackups(store);
  const newest = finished.at(-1);
  const old = finished.slice(0, Math.max(0, finished.length - keep));
  const leftovers = newest ? unfinished.filter((n) => n < newest) : [];
  // Manifests first: if deleting stops half way, what is left no longer counts as a backup.
  await store.deleteMany(old.map((n) => `${store.settings.prefix}${n}/${MANIFEST}`));
  await store.deleteMany(
    [...old, ...leftovers].flatMap((n) => keysOf.get(n)!.filter((k) => !k.endsWith(`/${n}/${MANIFEST}`))),
  );
  return [...old, ...leftovers].sort();
}

/**
 * Downloads a finished backup (`latest` or a folder name) into `to` and checks every file
 * against the manifest's sizes and SHA-256. Returns the folder name and its manifest.
 */
export async function downloadBackup(
  store: S3Store,
  which: string,
  to: string,
): Promise<{ name: string; manifest: Manifest }> {
  const { finished, unfinished } = await listRemoteBackups(store);
  const name = which === 'latest' ? finished.at(-1) : which;
  if (!name)
    throw new S3BackupError(
      `в ${store.where} нет ни одной законченной копии (с ${MANIFEST}). Проверьте BACKUP_S3_BUCKET и BACKUP_S3_PREFIX.`,
    );
  if (!finished.includes(name)) {
    const why = unfinished.includes(name)
      ? `у неё нет ${MANIFEST}: она не догрузилась или удаляется`
      : 'такой копии нет';
    throw new S3BackupError(
      `копию ${name} из ${store.where} восстановить нельзя: ${why}. Законченные копии: ${finished.join(', ') || 'нет'}.`,
    );
  }
  const base = `${store.settings.prefix}${name}/`;
  const manifestBytes = await store.get(`${base}${MANIFEST}`);
  if (!manifestBytes)
    throw new S3BackupError(`${MANIFEST} копии ${name} пропал из хранилища, пока шла загрузка: возьмите другую копию.`);
  await mkdir(path.join(to, 'media'), { recursive: true });
  await writeFile(path.join(to, MANIFEST), manifestBytes);
  const manifest = await readManifest(to);
  if (!manifest.files)
    throw new S3BackupError(
      `в ${MANIFEST} копии ${name} нет списка файлов: проверить её нечем, возьмите другую копию.`,
    );
  await eachLimited(manifest.files, async (f) => {
    if (!/^(kaspiy\.sqlite|media\/[A-Za-z0-9._-]+)$/.test(f.path) || f.path.includes('..'))
      throw new S3BackupError(
        `${MANIFEST} копии ${name} называет чужой файл ${f.path}: такую копию не восстанавливаем.`,
      );
    const bytes = await store.get(`${base}${f.path}`);
    if (!bytes)
      throw new S3BackupError(
        `в копии ${name} нет файла ${f.path}, хотя он есть в ${MANIFEST}: возьмите другую копию.`,
      );
    await writeFile(path.join(to, f.path), bytes);
  });
  await verifyBackup(to, manifest).catch((err: Error) => {
    throw new S3BackupError(`копия ${name} пришла из хранилища повреждённой (${err.message}). Возьмите другую копию.`);
  });
  return { name, manifest };
}
