import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { JPEG, ROOT, signIn as signInAs, startServer, uploadPhoto } from './test-server.ts';

const PASSWORD = 'backup-test-password';
const run = promisify(execFile);
/** The project's scripts as docs/operations.md runs them (npm run backup / restore -- …). */
const script = (name: string, args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'scripts', `${name}.ts`), ...args], { cwd: ROOT });

const start = (dataDir: string) => startServer({ dataDir, adminPassword: PASSWORD, shutdownGraceMs: 500 });
const signIn = (url: string) => signInAs(url, PASSWORD);

describe('backups of a self-hosted DATA_DIR', () => {
  let tmp: string;
  const servers: NodeServer[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-backup-'));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('should back up while the server runs and restore onto a fresh DATA_DIR with the same site', async () => {
    const live = await start(path.join(tmp, 'live'));
    servers.push(live);
    const cookie = await signIn(live.url);
    const upload = await uploadPhoto(live.url, cookie, 'sea.jpg');
    expect(upload.status).toBe(201);
    const { imageUrl } = await bodyOf(upload, 201);
    const cabin = await fetch(`${live.url}/api/cabins`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Домик из резервной копии',
        description: 'Проверка',
        pricePerNight: 5100,
        images: [imageUrl],
      }),
    });
    expect(cabin.status).toBe(201);

    // Taken while the server runs, as a daily timer would.
    const out = path.join(tmp, 'backups');
    const { stdout } = await script('backup', ['--data-dir', path.join(tmp, 'live'), '--out', out]);
    expect(stdout).toContain('1 photos');
    const [folder] = await readdir(out);

    const fresh = path.join(tmp, 'fresh');
    await script('restore', [path.join(out, folder!), '--data-dir', fresh]);
    const restored = await start(fresh);
    servers.push(restored);
    const cabins = await (await apiAt(restored.url).cabins.$get({ query: {} })).json();
    expect(cabins.map((c) => c.name)).toEqual(['Домик из резервной копии']);
    const photo = await fetch(`${restored.url}${cabins[0]!.images[0]}`);
    expect(photo.status).toBe(200);
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(JPEG);
    // The same admin account came along.
    await signIn(restored.url);
  });

  it('should refuse to restore over a DATA_DIR that has a database, unless told to', async () => {
    const out = path.join(tmp, 'backups');
    const [folder] = await readdir(out);
    const err = await script('restore', [path.join(out, folder!), '--data-dir', path.join(tmp, 'live')]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain('--force');
  });

  it('should refuse a backup whose photo differs from its manifest, leaving DATA_DIR untouched', async () => {
    const out = path.join(tmp, 'backups');
    const [folder] = await readdir(out);
    const damaged = path.join(tmp, 'damaged');
    await cp(path.join(out, folder!), damaged, { recursive: true });
    const [photo] = await readdir(path.join(damaged, 'media'));
    await writeFile(path.join(damaged, 'media', photo!), 'not the photo');
    const target = path.join(tmp, 'damaged-target');
    const err = await script('restore', [damaged, '--data-dir', target]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain(`media/${photo} in the backup ${damaged} is damaged`);
    expect(existsSync(path.join(target, 'kaspiy.sqlite'))).toBe(false);
  });

  it('should keep only the newest backups with --keep', async () => {
    const out = path.join(tmp, 'rotated');
    for (let i = 0; i < 3; i++)
      await script('backup', ['--data-dir', path.join(tmp, 'live'), '--out', out, '--keep', '2']);
    expect(await readdir(out)).toHaveLength(2);
  });
});
