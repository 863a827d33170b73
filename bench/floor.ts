import { spawn } from 'node:child_process';
import path from 'node:path';
import { quietEnv, ROOT, waitFor } from '../scripts/lib/tools.ts';

/**
 * Serves bench/floor/worker.js with `wrangler dev` and the site's own dev flags, so a load
 * test against it measures what the local serving path alone costs.
 */
export async function startFloorServer(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.join(ROOT, 'bench/floor');
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/wrangler'),
    [
      'dev',
      '--config',
      path.join(dir, 'wrangler.toml'),
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      path.join(ROOT, '.wrangler/bench-floor-state'),
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
    ],
    { cwd: dir, env: quietEnv(), stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`wrangler dev (floor) exited ${code}`))),
  );
  await Promise.race([waitFor(`${url}/`), exited]);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  return { url, stop };
}
