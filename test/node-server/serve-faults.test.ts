import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** `npm run serve` as the owner starts it; resolves with its exit code and output. */
async function serve(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', ...env },
      timeout: 30_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('npm run serve refuses to start on a problem only the owner can fix, plainly and without a restart loop', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-serve-faults-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('should say that DATA_DIR cannot be written and exit 78', async () => {
    const file = path.join(tmp, 'a-file');
    await writeFile(file, 'not a folder');
    const { code, out } = await serve({ DATA_DIR: path.join(file, 'data') });
    expect(code).toBe(78);
    expect(out).toContain('DATA_DIR');
    expect(out).toContain('cannot be written');
    expect(out).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('should say that the database cannot be opened, point to the backups, and exit 78', async () => {
    const dataDir = path.join(tmp, 'corrupt');
    await run('mkdir', ['-p', dataDir]);
    await writeFile(
      path.join(dataDir, 'kaspiy.sqlite'),
      'this is not a SQLite database at all, just text '.repeat(100),
    );
    const { code, out } = await serve({ DATA_DIR: dataDir });
    expect(code).toBe(78);
    expect(out).toContain('could not be opened');
    expect(out).toContain('npm run restore');
  });

  it('should refuse a SITE_URL that is not an address', async () => {
    const { code, out } = await serve({ DATA_DIR: path.join(tmp, 'ok'), SITE_URL: 'kaspiy ru' });
    expect(code).toBe(78);
    expect(out).toContain('SITE_URL');
  });
});
