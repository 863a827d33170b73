import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { JPEG, postBooking, ROOT, signIn as signInAs, startServer, uploadPhoto } from './test-server.ts';

const PASSWORD = 'backup-s3-test-password';
const BUCKET = 'kaspiy-backups';

type Result = { code: number; stdout: string; stderr: string };
/** The project's scripts as docs/operations.md and the nightly timer run them, with the given settings; never throws. */
const script = (name: string, args: string[], env: Record<string, string>) =>
  new Promise<Result>((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'scripts', `${name}.ts`), ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

const start = (dataDir: string) => startServer({ dataDir, adminPassword: PASSWORD, shutdownGraceMs: 500 });
const signIn = (url: string) => signInAs(url, PASSWORD);

describe('off-site backups of a self-hosted DATA_DIR to S3-compatible storage', () => {
  let tmp: string;
  let s3: S3rver;
  let endpoint: string;
  /** The test's own view of the bucket, independent of the scripts' client. */
  const aws = new AwsClient({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', service: 's3', region: 'ru-central1' });
  const servers: NodeServer[] = [];
  const live = () => path.join(tmp, 'live');
  const settings = (prefix: string, extra: Record<string, string> = {}) => ({
    BACKUP_S3_ENDPOINT: endpoint,
    BACKUP_S3_BUCKET: BUCKET,
    BACKUP_S3_ACCESS_KEY_ID: 'S3RVER',
    BACKUP_S3_SECRET_ACCESS_KEY: 'S3RVER',
    BACKUP_S3_PREFIX: prefix,
    ...extra,
  });
  const remoteKeys = async (prefix: string) => {
    const xml = await (await aws.fetch(`${endpoint}/${BUCKET}?list-type=2&prefix=${prefix}/`)).text();
    return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!).sort();
  };
  const remoteFolders = async (prefix: string, file: string) =>
    (await remoteKeys(prefix)).filter((k) => k.endsWith(`/${file}`)).map((k) => k.split('/')[1]!);

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-backup-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: path.join(tmp, 's3'),
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;

    // A site with a photo, a cabin and a booking, as the owner and a guest left it.
    const s = await start(live());
    servers.push(s);
    const cookie = await signIn(s.url);
    const upload = await uploadPhoto(s.url, cookie, 'sea.jpg');
    expect(upload.status).toBe(201);
    const { imageUrl } = await bodyOf(upload, 201);
    const cabin = await apiAt(s.url, { cookie }).cabins.$post({
      json: { name: 'Домик в облаке', description: 'Проверка', pricePerNight: 5100, images: [imageUrl] },
    });
    expect(cabin.status).toBe(201);
    const { id: cabinId } = await bodyOf(cabin, 201);
    const checkIn = addDays(todayInMoscow(), 30);
    const booking = await postBooking(
      s.url,
      {
        cabinId,
        checkIn,
        checkOut: addDays(checkIn, 3),
        guests: 1,
        name: 'Ирина Волкова',
        phone: '+7 928 000-11-22',
        email: '',
        comment: '',
        channel: 'phone',
      },
      '203.0.113.7',
    );
    expect(booking.status).toBe(201);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await s3?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('should upload the nightly backup and restore it from the bucket onto an empty machine with the same bookings and photos', async () => {
    const out = path.join(tmp, 'round-trip');
    const backup = await script('backup', ['--data-dir', live(), '--out', out], settings('kaspiy'));
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const [folder] = await readdir(out);
    expect(backup.stdout).toContain(`Копия ${folder} выгружена`);
    expect(await remoteKeys('kaspiy')).toEqual(
      expect.arrayContaining([
        `kaspiy/${folder}/kaspiy.sqlite`,
        `kaspiy/${folder}/manifest.json`,
        expect.stringMatching(new RegExp(`^kaspiy/${folder}/media/.+\\.jpg$`)),
      ]),
    );

    // The server and its disk are gone: only the bucket is left. On the new machine the settings
    // are in /etc/kaspiy.env again, and docs/operations.md restores with --env-file.
    await rm(out, { recursive: true, force: true });
    const fresh = path.join(tmp, 'fresh');
    const envFile = path.join(tmp, 'kaspiy.env');
    await writeFile(
      envFile,
      `PORT=3000\n# off-site\n${Object.entries(settings('kaspiy'))
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    const restore = await script('restore', ['s3://latest', '--data-dir', fresh, '--env-file', envFile], {});
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored ${folder}`);

    const restored = await start(fresh);
    servers.push(restored);
    const cabins = await (await apiAt(restored.url).cabins.$get({ query: {} })).json();
    expect(cabins.map((c) => c.name)).toEqual(['Домик в облаке']);
    const photo = await fetch(`${restored.url}${cabins[0]!.images[0]}`);
    expect(photo.status).toBe(200);
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(JPEG);
    const cookie = await signIn(restored.url);
    const bookings = (await fetch(`${restored.url}/api/admin/bookings`, { headers: { cookie } }).then((r) =>
      r.json(),
    )) as unknown;
    expect(JSON.stringify(bookings)).toContain('Ирина Волкова');
  });

  it('should upload from the nightly unit in deploy/ with the settings kaspiy.env.example lists', async () => {
    const unit = await readFile(path.join(ROOT, 'deploy/kaspiy-backup.service'), 'utf8');
    expect(unit).toMatch(/^EnvironmentFile=-?\/etc\/kaspiy\.env$/m);
    // The example's commented lines, uncommented and filled in as docs/operations.md says.
    const example = await readFile(path.join(ROOT, 'deploy/kaspiy.env.example'), 'utf8');
    const mine = settings('nightly', { BACKUP_S3_KEEP: '3' });
    const filled = example.replace(
      /^#(BACKUP_S3_\w+)=.*$/gm,
      (_, name: string) => `${name}=${mine[name as keyof typeof mine] ?? 'ru-central1'}`,
    );
    const env = parseEnv(filled) as Record<string, string>;
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('BACKUP_S3_'))
        .sort(),
    ).toEqual([...Object.keys(mine), 'BACKUP_S3_REGION'].sort());
    // ExecStart as systemd runs it, with the server's folders replaced by the test's.
    const out = path.join(tmp, 'nightly');
    const args = /^ExecStart=\S+ scripts\/backup\.ts (.+)$/m
      .exec(unit)![1]!
      .split(' ')
      .map((a) => ({ '/var/lib/kaspiy': live(), '/var/backups/kaspiy': out })[a] ?? a);
    const r = await script('backup', args, env);
    expect(r.code, r.stderr).toBe(0);
    expect(await remoteFolders('nightly', 'manifest.json')).toEqual(await readdir(out));
  });

  it('should keep only the newest BACKUP_S3_KEEP backups in the bucket and every local one', async () => {
    const out = path.join(tmp, 'rotated');
    for (let i = 0; i < 3; i++) {
      const r = await script(
        'backup',
        ['--data-dir', live(), '--out', out],
        settings('rotated', { BACKUP_S3_KEEP: '2' }),
      );
      expect(r.code, r.stderr).toBe(0);
    }
    const local = (await readdir(out)).sort();
    expect(local).toHaveLength(3);
    expect(await remoteFolders('rotated', 'manifest.json')).toEqual(local.slice(1));
    // The oldest is gone whole, photos and database too.
    expect((await remoteKeys('rotated')).filter((k) => k.includes(local[0]!))).toEqual([]);
  });

  it('should report a storage that does not answer, exit non-zero and keep the local backup', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const out = path.join(tmp, 'down');
    const r = await script(
      'backup',
      ['--data-dir', live(), '--out', out],
      settings('down', { BACKUP_S3_ENDPOINT: `http://127.0.0.1:${port}` }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Копия не выгружена');
    expect(r.stderr).toContain(`не удалось связаться с хранилищем http://127.0.0.1:${port}`);
    expect(r.stderr).toContain('ECONNREFUSED');
    const [folder] = await readdir(out);
    expect(r.stderr).toContain(`Локальная копия цела: ${path.join(out, folder!)}`);
    expect(existsSync(path.join(out, folder!, 'manifest.json'))).toBe(true);
  });

  it('should report a wrong access key (403), exit non-zero and keep the local backup', async () => {
    const out = path.join(tmp, 'denied');
    const r = await script(
      'backup',
      ['--data-dir', live(), '--out', out],
      settings('denied', { BACKUP_S3_ACCESS_KEY_ID: 'NOT-A-KEY' }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('хранилище отказало в доступе');
    expect(r.stderr).toContain('403 InvalidAccessKeyId');
    expect(r.stderr).toContain('BACKUP_S3_ACCESS_KEY_ID');
    const [folder] = await readdir(out);
    expect(existsSync(path.join(out, folder!, 'manifest.json'))).toBe(true);
    expect(await remoteKeys('denied')).toEqual([]);
  });

  it('should refuse half the settings with a message naming what is missing, keeping the local backup', async () => {
    const out = path.join(tmp, 'half');
    const r = await script('backup', ['--data-dir', live(), '--out', out], {
      BACKUP_S3_ENDPOINT: endpoint,
      BACKUP_S3_BUCKET: BUCKET,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Не заданы BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY');
    expect(await readdir(out)).toHaveLength(1);
  });

  it('should not restore a backup whose upload was cut short (no manifest), and take the newest finished one as latest', async () => {
    const out = path.join(tmp, 'cut');
    for (let i = 0; i < 2; i++)
      expect((await script('backup', ['--data-dir', live(), '--out', out], settings('cut'))).code).toBe(0);
    const [older, newer] = (await readdir(out)).sort();
    // The newer upload stopped before its manifest went up.
    expect((await aws.fetch(`${endpoint}/${BUCKET}/cut/${newer}/manifest.json`, { method: 'DELETE' })).status).toBe(
      204,
    );

    const target = path.join(tmp, 'cut-target');
    const refused = await script('restore', [`s3://${newer}`, '--data-dir', target], settings('cut'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`✖ Копию ${newer}`);
    expect(refused.stderr).toContain('нет manifest.json: она не догрузилась');
    expect(existsSync(path.join(target, 'kaspiy.sqlite'))).toBe(false);

    const latest = await script('restore', ['s3://latest', '--data-dir', target], settings('cut'));
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toContain(`Restored ${older}`);
    const listed = await script('restore', ['--list-s3'], settings('cut'));
    expect(listed.stdout).toContain(older);
    expect(listed.stdout).not.toContain(newer);
  });

  it('should refuse a backup damaged in the bucket, leaving DATA_DIR untouched', async () => {
    const [folder] = await remoteFolders('rotated', 'manifest.json');
    const db = `${endpoint}/${BUCKET}/rotated/${folder}/kaspiy.sqlite`;
    expect((await aws.fetch(db, { method: 'PUT', body: 'not a database' })).status).toBe(200);
    const target = path.join(tmp, 'damaged-target');
    const r = await script('restore', [`s3://${folder}`, '--data-dir', target], settings('rotated'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`✖ Копия ${folder} пришла из хранилища повреждённой`);
    expect(r.stderr).toContain('kaspiy.sqlite');
    expect(existsSync(path.join(target, 'kaspiy.sqlite'))).toBe(false);
  });

  it('should refuse to restore from the bucket over a DATA_DIR that has a database, unless told to', async () => {
    const r = await script('restore', ['s3://latest', '--data-dir', live()], settings('kaspiy'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--force');
  });
});
