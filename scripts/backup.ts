import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { backupDataDir } from './lib/data-dir-backup.ts';
import { argValue, withLocalBindings } from './lib/local-bindings.ts';
import { pruneRemoteBackups, uploadBackup } from './lib/s3-backup.ts';
import { S3BackupError, S3Store, s3SettingsFromEnv } from './lib/s3-store.ts';
import { ROOT, run } from './lib/tools.ts';

// `npm run backup` (local) or `npm run backup -- --remote` (production): a dated folder with
// the whole D1 database as SQL, the list of R2 photos and the photos themselves.
// `npm run backup -- --data-dir /var/lib/kaspiy [--out DIR] [--keep N] [--env-file FILE]`
// (self-hosted): the SQLite database copied consistently while the server runs, and the photos;
// with BACKUP_S3_* set (in the environment or FILE), also uploaded to S3-compatible storage.
const dataDir = argValue('--data-dir');
if (dataDir) {
  const keep = argValue('--keep') === undefined ? undefined : Number(argValue('--keep'));
  if (keep !== undefined && !(Number.isInteger(keep) && keep > 0)) {
    console.error('--keep takes a whole number of backups to keep, e.g. --keep 14');
    process.exit(1);
  }
  const envFile = argValue('--env-file');
  if (envFile) process.loadEnvFile(envFile);
  const out = path.resolve(argValue('--out') ?? path.join(ROOT, 'backups'));
  const { dir, manifest } = await backupDataDir(path.resolve(dataDir), out, { keep });
  console.log(
    `Backup written to ${dir}: ${manifest.database}, ${manifest.photos} photos (${(manifest.bytes / 1e6).toFixed(1)} MB)`,
  );
  // The local copy is written first and stays whatever happens off-site.
  process.exit(await copyOffSite(dir));
}
const remote = process.argv.includes('--remote');
const persistTo = path.join(ROOT, '.wrangler/state');
const BUCKET = 'kaspiy-media';

const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
const dir = path.join(ROOT, 'backups', `${stamp}${remote ? '-remote' : ''}`);
await mkdir(path.join(dir, 'media'), { recursive: true });

// d1 export reads the default local state (.wrangler/state), the one `npm start` uses.
await run('wrangler', ['d1', 'export', 'DB', remote ? '--remote' : '--local', '--output', path.join(dir, 'd1.sql')], {
  quiet: true,
});

type ObjectInfo = { key: string; size: number; contentType: string | null; uploaded: string | null };
let objects: ObjectInfo[];
if (remote) {
  // wrangler cannot list a remote bucket: take every photo the database refers to.
  const sql = await readFile(path.join(dir, 'd1.sql'), 'utf8');
  const keys = [
    ...new Set([...sql.matchAll(/\/media\/([A-Za-z0-9_-]{1,100}\.(?:jpg|png|gif|webp))/g)].map((m) => m[1]!)),
  ];
  objects = [];
  for (const key of keys) {
    const file = path.join(dir, 'media', key);
    await run('wrangler', ['r2', 'object', 'get', `${BUCKET}/${key}`, '--remote', '--file', file], { quiet: true });
    const size = (await readFile(file)).byteLength;
    objects.push({ key, size, contentType: null, uploaded: null });
  }
} else {
  objects = await withLocalBindings(persistTo, async ({ MEDIA }) => {
    const listed: ObjectInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await MEDIA.list({ cursor, include: ['httpMetadata'] });
      for (const o of page.objects) {
        const body = await MEDIA.get(o.key);
        if (body) await writeFile(path.join(dir, 'media', o.key), new Uint8Array(await body.arrayBuffer()));
        listed.push({
          key: o.key,
          size: o.size,
          contentType: o.httpMetadata?.contentType ?? null,
          uploaded: o.uploaded.toISOString(),
        });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return listed;
  });
}
await writeFile(path.join(dir, 'r2-objects.json'), JSON.stringify(objects, null, 2));
console.log(`Backup written to ${path.relative(ROOT, dir)}: d1.sql, ${objects.length} photos, r2-objects.json`);

/** Uploads the backup when BACKUP_S3_* are set and keeps the newest BACKUP_S3_KEEP there; the exit code. */
async function copyOffSite(dir: string): Promise<number> {
  let store: S3Store | undefined;
  let uploaded: string | undefined;
  try {
    const settings = s3SettingsFromEnv();
    if (!settings) return 0;
    store = new S3Store(settings);
    uploaded = (await uploadBackup(store, dir)).name;
    const removed = await pruneRemoteBackups(store, settings.keep);
    console.log(
      `Копия ${uploaded} выгружена в ${store.where}${removed.length ? `; удалены старые: ${removed.join(', ')}` : ''} (хранится ${settings.keep} последних).`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof S3BackupError)) throw err;
    const where = store ? ` в ${store.where}` : ' в хранилище';
    // Uploaded but the old ones stay: still worth a failed unit, the bucket keeps growing.
    console.error(
      uploaded
        ? `✖ Копия ${uploaded} выгружена${where}, но старые копии не удалены: ${err.message}`
        : `✖ Копия не выгружена${where}: ${err.message}`,
    );
    console.error(`  Локальная копия цела: ${dir}`);
    return 1;
  }
}
