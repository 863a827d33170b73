import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../scripts/lib/tools.ts';

export const CADDY = '/usr/bin/caddy';

/**
 * The peer for static files: Debian's Caddy serving the same built directory as the target, on
 * the same machine in the same run, with its precompressed brotli and gzip twins where the build
 * made them and the same clean addresses (/cabins → cabins.html). No TLS, no admin endpoint, no
 * access log: a plain file server, as fast as Caddy makes one.
 */
export function startCaddy(siteDir: string, port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  return runCaddy(
    port,
    `\troot * "${siteDir.replaceAll('"', '\\"')}"
\ttry_files {path} {path}.html {path}/index.html
\tfile_server {
\t\tprecompressed br gzip
\t}`,
  );
}

/**
 * A stand-in for Cloudflare's edge in front of `wrangler dev`, for page loads only: in
 * production the edge compresses text/html, CSS, JavaScript and JSON for every browser that
 * takes it (developers.cloudflare.com/speed/optimization/content/compression/); wrangler dev
 * sends them as they are, 50–70 KB of HTML where a phone would get 14 KB. gzip, the weakest of
 * the edge's three encodings (Debian's Caddy has no brotli encoder). The API and static-file
 * latency rows go to wrangler dev directly, so the proxy's own time never enters a ratio.
 */
export function startCompressingEdge(
  origin: string,
  port: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  return runCaddy(
    port,
    `\tencode gzip
\treverse_proxy ${new URL(origin).host}`,
  );
}

async function runCaddy(port: number, site: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-caddy-'));
  const config = path.join(dir, 'Caddyfile');
  await writeFile(
    config,
    `{
\tadmin off
\tauto_https off
}
http://127.0.0.1:${port} {
${site}
}
`,
  );
  const child = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`caddy exited ${code}: ${err}`))),
  );
  await Promise.race([waitFor(`${url}/`), exited]);
  exited.catch(() => {});
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
