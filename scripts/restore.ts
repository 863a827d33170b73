import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { restoreDataDir } from './lib/data-dir-backup.ts';
import { argValue, withLocalBindings } from './lib/local-bindings.ts';
import { ROOT, run } from './lib/tools.ts';

// `npm run restore -- backups/<folder>`: replaces the local database and photos with a backup.
// With --remote it loads the backup into a NEW, empty production database and the bucket.
// With --data-dir DIR it puts a self-hosted backup into DATA_DIR (server stopped; --force to replace).
const dir = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
const remote = process.argv.includes('--remote');
if (!dir) {
  console.error('Usage: npm run restore -- backups/<folder> [--remote | --data-dir DIR [--force]]');
  process.exit(1);
}
const from = path.resolve(ROOT, dir);
const dataDir = argValue('--data-dir');
if (dataDir) {
  try {
    const manifest = await restoreDataDir(from, path.resolve(dataDir), { force: process.argv.includes('--force') });
    console.log(`Restored ${from} (${manifest.createdAt}, ${manifest.photos} photos) into ${path.resolve(dataDir)}: start the server (npm run serve); it rebuilds the site.`);
    process.exit(0);
  } catch (err) {
    console.error(`✖ ${(err as Error).message}`);
    process.exit(1);
  }
}
const objects = JSON.parse(await readFile(path.join(from, 'r2-objects.json'), 'utf8')) as { key: string; contentType: string | null }[];
const persistTo = path.resolve(ROOT, argValue('--persist-to') ?? '.wrangler/state');

if (!remote) await rm(persistTo, { recursive: true, force: true });
await run('wrangler', ['d1', 'execute', 'DB', remote ? '--remote' : '--local', ...(remote ? [] : ['--persist-to', persistTo]), '--file', path.join(from, 'd1.sql'), '--yes'], { quiet: true });

const mimeOf = (key: string) => ({ jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' })[key.split('.').pop()!] ?? 'application/octet-stream';
const files = new Set(await readdir(path.join(from, 'media')));
if (remote) {
  for (const { key } of objects) {
    if (!files.has(key)) continue;
    await run('wrangler', ['r2', 'object', 'put', `kaspiy-media/${key}`, '--remote', '--file', path.join(from, 'media', key), '--content-type', mimeOf(key)], { quiet: true });
  }
} else {
  await withLocalBindings(persistTo, async ({ MEDIA }) => {
    for (const { key, contentType } of objects) {
      if (!files.has(key)) continue;
      await MEDIA.put(key, await readFile(path.join(from, 'media', key)), { httpMetadata: { contentType: contentType ?? mimeOf(key) } });
    }
  });
}
console.log(`Restored ${path.relative(ROOT, from)} ${remote ? 'to production' : 'locally: run npm start'}.`);

