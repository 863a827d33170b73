import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertRestorable, restoreDataDir, type Manifest } from './lib/data-dir-backup.ts';
import { argValue, withLocalBindings } from './lib/local-bindings.ts';
import { downloadBackup, listRemoteBackups } from './lib/s3-backup.ts';
import { S3Store, s3SettingsFromEnv } from './lib/s3-store.ts';
import { ROOT, run } from './lib/tools.ts';

// `npm run restore -- backups/<folder>`: replaces the local database and photos with a backup.
// With --remote it loads the backup into a NEW, empty production database and the bucket.
// With --data-dir DIR it puts a self-hosted backup into DATA_DIR (server stopped; --force to replace).
// `npm run restore -- s3://latest|s3://<folder> --data-dir DIR [--force] [--env-file FILE]` takes
// it from the S3-compatible storage that BACKUP_S3_* name; `npm run restore -- --list-s3` lists
// the finished backups there.
const envFile = argValue('--env-file');
if (envFile) process.loadEnvFile(envFile);
const dir = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
const remote = process.argv.includes('--remote');
const dataDir = argValue('--data-dir');
if (process.argv.includes('--list-s3') || dir?.startsWith('s3://')) {
  try {
    const settings = s3SettingsFromEnv();
    if (!settings)
      throw new Error(
        'BACKUP_S3_ENDPOINT, BACKUP_S3_BUCKET, BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY are not set: put them in the environment or pass --env-file /etc/kaspiy.env',
      );
    const store = new S3Store(settings);
    if (!dir) {
      const { finished } = await listRemoteBackups(store);
      console.log(
        finished.length
          ? `Finished backups in ${store.where} (oldest first):\n${finished.join('\n')}`
          : `No finished backups in ${store.where}`,
      );
      process.exit(0);
    }
    if (!dataDir) throw new Error('A backup from S3 is restored into a self-hosted DATA_DIR: add --data-dir DIR');
    const target = path.resolve(dataDir);
    // Refused before anything is downloaded, as with a local folder.
    await assertRestorable(target, { force: process.argv.includes('--force') });
    const staging = await mkdtemp(path.join(tmpdir(), 'kaspiy-restore-'));
    let manifest: Manifest;
    let name: string;
    try {
      ({ name } = await downloadBackup(store, dir.slice('s3://'.length) || 'latest', staging));
      manifest = await restoreDataDir(staging, target, { force: process.argv.includes('--force') });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    console.log(
      `Restored ${name} from ${store.where} (${manifest.createdAt}, ${manifest.photos} photos) into ${target}: start the server (npm run serve); it rebuilds the site.`,
    );
    process.exit(0);
  } catch (err) {
    const message = (err as Error).message;
    console.error(`✖ ${message.charAt(0).toUpperCase()}${message.slice(1)}`);
    process.exit(1);
  }
}
if (!dir) {
  console.error(
    'Usage: npm run restore -- backups/<folder> [--remote | --data-dir DIR [--force]]\n       npm run restore -- s3://latest|s3://<folder> --data-dir DIR [--force] [--env-file FILE]\n       npm run restore -- --list-s3 [--env-file FILE]',
  );
  process.exit(1);
}
const from = path.resolve(ROOT, dir);
if (dataDir) {
  try {
    const manifest = await restoreDataDir(from, path.resolve(dataDir), { force: process.argv.includes('--force') });
    console.log(
      `Restored ${from} (${manifest.createdAt}, ${manifest.photos} photos) into ${path.resolve(dataDir)}: start the server (npm run serve); it rebuilds the site.`,
    );
    process.exit(0);
  } catch (err) {
    console.error(`✖ ${(err as Error).message}`);
    process.exit(1);
  }
}
const objects = JSON.parse(await readFile(path.join(from, 'r2-objects.json'), 'utf8')) as {
  key: string;
  contentType: string | null;
}[];
const persistTo = path.resolve(ROOT, argValue('--persist-to') ?? '.wrangler/state');

if (!remote) await rm(persistTo, { recursive: true, force: true });
await run(
  'wrangler',
  [
    'd1',
    'execute',
    'DB',
    remote ? '--remote' : '--local',
    ...(remote ? [] : ['--persist-to', persistTo]),
    '--file',
    path.join(from, 'd1.sql'),
    '--yes',
  ],
  { quiet: true },
);

const mimeOf = (key: string) =>
  ({ jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' })[key.split('.').pop()!] ??
  'application/octet-stream';
const files = new Set(await readdir(path.join(from, 'media')));
if (remote) {
  for (const { key } of objects) {
    if (!files.has(key)) continue;
    await run(
      'wrangler',
      [
        'r2',
        'object',
        'put',
        `kaspiy-media/${key}`,
        '--remote',
        '--file',
        path.join(from, 'media', key),
        '--content-type',
        mimeOf(key),
      ],
      { quiet: true },
    );
  }
} else {
  await withLocalBindings(persistTo, async ({ MEDIA }) => {
    for (const { key, contentType } of objects) {
      if (!files.has(key)) continue;
      await MEDIA.put(key, await readFile(path.join(from, 'media', key)), {
        httpMetadata: { contentType: contentType ?? mimeOf(key) },
      });
    }
  });
}
console.log(`Restored ${path.relative(ROOT, from)} ${remote ? 'to production' : 'locally: run npm start'}.`);
