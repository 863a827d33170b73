import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, readFile, rm, rmdir, stat, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { createRebuilder } from '../../scripts/rebuild-service.ts';
import { isStorageFull } from '../../worker/platform/ports.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { openSqlite } from '../../worker/platform/node/sqlite.ts';
import { precompressSite, staticSite } from '../../worker/platform/node/static-site.ts';
import { listBookings } from '../../worker/queries/bookings.ts';
import { apiAt } from '../typed-api.ts';
import { addCabin, ownerRequests, postBooking, ROOT, signIn, startServer, uploadPhoto } from './test-server.ts';

// The self-hosted server with DATA_DIR on a disk that fills up: a real small
// filesystem (tmpfs) mounted for the test, filled by a file, so every error is the kernel's own
// ENOSPC and SQLite's own SQLITE_FULL. The site build is the real one (staging on DATA_DIR,
// precompression, the swap) except Astro's rendering, which a stand-in does in a moment: it
// writes the pages and a large photo, as a build's optimised photos are.

const PASSWORD = 'full-disk-1';
const DISK_MB = 32;
/** The build's photo: more than the room left on the nearly full disk, too random to compress. */
const PHOTO_BYTES = 2 * 1024 * 1024;
/** What the nearly full disk keeps free: room for an edit, not for a build. */
const NEARLY_FULL_FREE = 384 * 1024;

/** A small real filesystem, or why there can be none here (mount is root's). */
async function mountSmallDisk(): Promise<string | Error> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kaspiy-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MB}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (err) {
    await rmdir(dir);
    const said = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return new Error(said || (err as Error).message);
  }
}

const disk = await mountSmallDisk();
const skipReason =
  disk instanceof Error
    ? ` (SKIPPED: a small real filesystem needs \`mount -t tmpfs\`, which needs root (in a container, one allowed to mount): ${disk.message})`
    : '';
if (skipReason) console.warn(`full-disk.test.ts${skipReason}`);
const dataDir = disk instanceof Error ? '' : disk;
const siteDir = path.join(dataDir, 'site');
const stagingDir = path.join(dataDir, '.site-staging');
const filler = path.join(dataDir, 'filler');

const free = async () => Number((await statfs(dataDir)).bavail) * Number((await statfs(dataDir)).bsize);
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Grows the filler file until the disk keeps only `keep` bytes (0: until the kernel refuses a byte more). */
async function fill(keep = 0): Promise<void> {
  const file = await open(filler, 'a');
  try {
    for (const chunk of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const buf = Buffer.alloc(chunk, 1);
      while ((await free()) - chunk >= keep) {
        try {
          await file.write(buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    await file.close();
  }
}

let server: NodeServer;
let cookie = '';
let apiUrl = '';

/** Astro's part of a build, done quickly: the home page with the hero title from the API, and a photo. */
async function render(outDir: string): Promise<void> {
  const { heroTitle } = await (await apiAt(apiUrl).settings.$get()).json();
  await mkdir(path.join(outDir, '_astro'), { recursive: true });
  await writeFile(path.join(outDir, 'index.html'), `<!doctype html><title>Каспий</title><h1>${heroTitle}</h1>`);
  await writeFile(path.join(outDir, '_astro', 'sea.avif'), randomBytes(PHOTO_BYTES));
}

const rebuilder = createRebuilder({
  get apiUrl() {
    return apiUrl;
  },
  outDir: siteDir,
  stagingDir,
  postBuild: precompressSite,
  retryDelaysMs: [],
  render,
});

const { putTitle, heroTitle } = ownerRequests(() => ({ url: server.url, cookie }));
const upload = () => uploadPhoto(server.url, cookie);

describe.skipIf(disk instanceof Error)(`the self-hosted server with a full disk under DATA_DIR${skipReason}`, () => {
  let cabinId: number;
  const checkIn = addDays(todayInMoscow(), 30);
  const request = (name: string) =>
    postBooking(server.url, {
      cabinId,
      checkIn,
      checkOut: addDays(checkIn, 2),
      guests: 2,
      name,
      phone: '+7 928 111-22-33',
      email: '',
      comment: 'Будем к вечеру',
      channel: 'phone',
    });

  beforeAll(async () => {
    server = await startServer({
      dataDir,
      siteDir,
      adminPassword: PASSWORD,
      rebuild: { request: () => rebuilder.request(), status: async () => rebuilder.status },
      staticFiles: staticSite({ root: siteDir, https: false }),
    });
    apiUrl = server.url;
    cookie = await signIn(server.url, PASSWORD);
    cabinId = (await addCabin(server)).id;
    // The site as it is live before the disk fills.
    expect((await putTitle('Прежний заголовок')).status).toBe(200);
    await vi.waitFor(
      () => expect(rebuilder.status).toMatchObject({ state: 'idle', builtVersion: expect.any(Number) }),
      { timeout: 15_000 },
    );
    await rebuilder.idle();
  }, 60_000);

  afterAll(async () => {
    await rebuilder.idle();
    await server?.close().catch(() => {});
    try {
      execFileSync('umount', [dataDir], { stdio: 'pipe' });
    } catch {
      // Something still holds a file open (a failed test): detach it now, freed when let go.
      execFileSync('umount', ['--lazy', dataDir], { stdio: 'pipe' });
    }
    await rmdir(dataDir);
  });

  it('should fail a rebuild that finds no room, keep the old site serving, give back the space and tell the owner plainly in the panel and the health check', async () => {
    await fill(NEARLY_FULL_FREE);
    const before = await free();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // The edit fits and is saved; the build it starts does not.
      expect((await putTitle('Новый заголовок')).status).toBe(200);
      await vi.waitFor(() => expect(rebuilder.status.state).toBe('failed'), { timeout: 15_000 });
      await rebuilder.idle();
    } finally {
      errors.mockRestore();
    }
    expect(rebuilder.status.cause).toBe(MSG.buildStorageFull);
    const publish = await (await apiAt(server.url, { cookie }).admin.publish.$get()).json();
    expect(publish).toMatchObject({ upToDate: false, builder: { state: 'failed', cause: MSG.buildStorageFull } });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, error: MSG.healthBuildFailed });
    // The previous site still serves, whole.
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>Прежний заголовок</h1>');
    expect((await stat(path.join(siteDir, '_astro', 'sea.avif'))).size).toBe(PHOTO_BYTES);
    // The half-made copy is gone, its space given back for the next try.
    expect(await exists(stagingDir)).toBe(false);
    expect(await free()).toBeGreaterThanOrEqual(before - 64 * 1024);
    expect(await heroTitle()).toBe('Новый заголовок');
  }, 60_000);

  describe('with not a byte free', () => {
    let media: string[];
    let bookings: Awaited<ReturnType<typeof listBookings>>;

    beforeAll(async () => {
      // From a disk with room again (the test before leaves it nearly full): the request, the
      // photo and the checkpoint below need room, and then the disk is filled to the last byte.
      await rm(filler, { force: true });
      expect((await request('Ольга Петрова')).status).toBe(201);
      bookings = await listBookings(server.storage.bindings);
      expect(bookings).toHaveLength(1);
      expect((await upload()).status).toBe(201);
      media = await readdir(server.storage.paths.mediaDir);
      // A checkpoint leaves the write-ahead log empty (as after a restart): a write must then find
      // new room on the disk, where an old log's length might still hold a small one.
      const other = new DatabaseSync(server.storage.paths.dbFile);
      other.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      other.close();
      await fill();
      expect(await free()).toBeLessThan(4096);
    });
    afterAll(() => rm(filler, { force: true }));

    it('should refuse a photo with 507 and the owner’s message, and leave no file behind', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await upload();
      errors.mockRestore();
      expect(res.status).toBe(507);
      expect(await res.json()).toEqual({ error: MSG.storageFullAdmin });
      expect(await readdir(server.storage.paths.mediaDir)).toEqual(media);
    });

    it('should refuse an owner’s edit with 507 and the owner’s message, and change nothing', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await putTitle('Не поместится');
      errors.mockRestore();
      expect(res.status).toBe(507);
      expect(await res.json()).toEqual({ error: MSG.storageFullAdmin });
      expect(await heroTitle()).toBe('Новый заголовок');
    });

    it('should have npm run serve refuse to start on the full disk with what to free, not with advice to move the database away', async () => {
      const { code, out } = await new Promise<{ code: number; out: string }>((resolve) =>
        execFile(
          process.execPath,
          [path.join(ROOT, 'scripts/serve.ts')],
          { cwd: ROOT, env: { ...process.env, PORT: '0', DATA_DIR: path.join(dataDir, 'second') }, timeout: 30_000 },
          (err, stdout, stderr) =>
            resolve({ code: typeof err?.code === 'number' ? err.code : 0, out: stdout + stderr }),
        ),
      );
      expect(code).toBe(78);
      expect(out).toContain('is full');
      expect(out).toContain('journalctl --vacuum-size');
      expect(out).not.toContain('move the file away');
    });

    it('should refuse a booking request with 507 and the visitor’s message, keep every stored request, and take the same request once there is room', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const refused = await request('Мадина Гасанова');
      errors.mockRestore();
      expect(refused.status).toBe(507);
      expect(await refused.json()).toEqual({ error: MSG.storageFull });
      expect(await listBookings(server.storage.bindings)).toEqual(bookings);
      // The live site kept serving throughout.
      const home = await fetch(`${server.url}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Прежний заголовок');

      await rm(filler);
      const taken = await request('Мадина Гасанова');
      expect(taken.status).toBe(201);
      const after = await listBookings(server.storage.bindings);
      expect(after).toHaveLength(2);
      expect(after).toEqual(
        expect.arrayContaining([...bookings, expect.objectContaining({ name: 'Мадина Гасанова' })]),
      );
    });
  });

  describe('isStorageFull, with the errors a full disk really gives', () => {
    let dir: string;
    beforeAll(async () => {
      dir = path.join(dataDir, 'errors');
      await mkdir(dir);
    });
    afterEach(() => rm(filler, { force: true }));

    it('should know the kernel’s ENOSPC, SQLite’s SQLITE_FULL as node:sqlite and our SQLite port throw it, and a build’s output that tells of one', async () => {
      const raw = new DatabaseSync(path.join(dir, 'raw.sqlite'));
      const port = openSqlite(path.join(dir, 'port.sqlite'));
      onTestFinished(() => {
        raw.close();
        port.close();
      });
      raw.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x TEXT)');
      port.exec('CREATE TABLE t (x TEXT)');
      raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      port.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      await fill();

      const fsError = await writeFile(path.join(dir, 'page.html'), randomBytes(64 * 1024)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(fsError).toMatchObject({ code: 'ENOSPC' });
      expect(isStorageFull(fsError)).toBe(true);

      let sqliteError: unknown;
      try {
        raw.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(64 * 1024));
      } catch (err) {
        sqliteError = err;
      }
      expect(sqliteError).toMatchObject({ errcode: 13 });
      expect(isStorageFull(sqliteError)).toBe(true);

      const portError = await port
        .prepare('INSERT INTO t VALUES (?)')
        .bind('x'.repeat(64 * 1024))
        .run()
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(portError).toBeInstanceOf(Error);
      expect(isStorageFull(portError)).toBe(true);
      // As drizzle passes it on.
      expect(isStorageFull(new Error('Failed query: insert into "t"', { cause: portError }))).toBe(true);
      // What the Astro child process printed when it ran out of room (a message, no code).
      expect(isStorageFull(new Error(`astro build exited 1\n[WARN] a warning\n${(fsError as Error).message}`))).toBe(
        true,
      );
    });

    it('should not take other faults for a full disk', async () => {
      const raw = new DatabaseSync(':memory:');
      raw.exec('CREATE TABLE t (x TEXT UNIQUE)');
      raw.exec("INSERT INTO t VALUES ('a')");
      let constraint: unknown;
      try {
        raw.exec("INSERT INTO t VALUES ('a')");
      } catch (err) {
        constraint = err;
      }
      expect(isStorageFull(constraint)).toBe(false);
      expect(isStorageFull(await readFile(path.join(dir, 'missing')).catch((e: unknown) => e))).toBe(false);
      expect(isStorageFull(new Error('astro build exited 1\nCannot find package'))).toBe(false);
      expect(isStorageFull('ENOSPC')).toBe(false);
    });
  });
});
