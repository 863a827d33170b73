// A self-hosted server of a bench script's own, on an empty temporary DATA_DIR that goes with it,
// so what the script seeds changes nothing the other stages measure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNodeServer, type NodeServerOptions } from '../worker/platform/node/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Starts it on a free port of 127.0.0.1; `close` stops it and removes its folder. */
export async function startTempServer(
  name: string,
  options: Omit<NodeServerOptions, 'dataDir' | 'migrationsDir' | 'port' | 'host'>,
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `kaspiy-${name}-`));
  const server = await startNodeServer({
    dataDir,
    migrationsDir: path.join(ROOT, 'migrations'),
    port: 0,
    host: '127.0.0.1',
    ...options,
  });
  const close = async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, close };
}
