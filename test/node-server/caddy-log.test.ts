import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVED_PATHS } from '../../schema/constants.ts';
import { freePort } from './free-port.ts';
import { until } from './until.ts';

// The deploy kit's Caddyfile, run by Debian's Caddy in front of a stand-in server: what Caddy
// writes to the journal for guests' pages, query strings and the admin panel's address must name
// none of their secrets, and still show the public site's pages.

const CADDY = '/usr/bin/caddy';
const HAS_CADDY = existsSync(CADDY);
const ROOT = path.resolve(import.meta.dirname, '../..');

const GUEST_TOKEN = '0123456789abcdef0123456789abcdef0123';
const FAILED_TOKEN = 'fedcba9876543210fedcba9876543210fedc';
const ICAL_TOKEN = 'a'.repeat(40) + 'deadbeef';
const HOOK_SECRET = 'c0ffee'.repeat(8);
const SIGN_IN_TOKEN = 'feed'.repeat(16);
const QUERY_SECRET = 'query-secret-5b1e';
const ADMIN_PATH = 'hidden-panel-7q2x';
const REFERER_TOKEN = 'referer-token-9c4d';

let tmp: string;
let upstream: Server;
let caddy: ChildProcess;
let base: string;
let log = '';

/** The deploy Caddyfile with the site at http://127.0.0.1:PORT and neither an admin endpoint nor certificates. */
async function caddyfileFor(port: number): Promise<string> {
  const deploy = await readFile(path.join(ROOT, 'deploy/Caddyfile'), 'utf8');
  const local = deploy
    .replace(/^\{$/m, '{\n\tadmin off\n\tauto_https off')
    .replace(/^\{\$SITE_DOMAIN\} \{$/m, `http://127.0.0.1:${port} {`)
    .replace(/^www\.\{\$SITE_DOMAIN\} \{$/m, `http://www.localhost:${port} {`);
  // The kit's file no longer has the shape this variant is made from: the test would prove nothing.
  expect(local).toContain('admin off');
  expect(local).toContain(`http://127.0.0.1:${port} {`);
  expect(local).not.toContain('{$SITE_DOMAIN} {');
  return local;
}

const uris = () => [...log.matchAll(/"uri": "([^"]*)"/g)].map((m) => m[1]!);
const handled = () => log.split('\n').filter((l) => l.includes('handled request')).length;

describe.skipIf(!HAS_CADDY)(
  `Caddy's log of the deploy kit${HAS_CADDY ? '' : ` (skipped: ${CADDY} is missing; apt-get install caddy)`}`,
  () => {
    beforeAll(async () => {
      tmp = await mkdtemp(path.join(tmpdir(), 'caddy-log-'));
      // The stand-in for the Node server: a redirect that names the admin path, a dropped
      // connection (as while the server restarts), else a plain page with a session cookie.
      upstream = createServer((req, res) => {
        if (req.url === `/${ADMIN_PATH}`) return void res.writeHead(301, { location: `/${ADMIN_PATH}/` }).end();
        if (req.url?.includes(FAILED_TOKEN)) return void req.socket.destroy();
        res.setHeader('set-cookie', 'kaspiy_admin=session-cookie; HttpOnly');
        res.end('ok');
      }).listen(0, '127.0.0.1');
      await once(upstream, 'listening');
      const port = await freePort();
      const config = path.join(tmp, 'Caddyfile');
      await writeFile(config, await caddyfileFor(port));
      caddy = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: tmp,
          XDG_DATA_HOME: tmp,
          XDG_CONFIG_HOME: tmp,
          KASPIY_PORT: String((upstream.address() as AddressInfo).port),
        },
      });
      for (const stream of [caddy.stdout!, caddy.stderr!]) stream.on('data', (d: Buffer) => (log += d.toString()));
      base = `http://127.0.0.1:${port}`;
      await until(
        'Caddy to answer',
        () =>
          fetch(`${base}/`).then(
            (r) => (r.ok ? true : undefined),
            () => undefined,
          ),
        15_000,
      );
    });

    afterAll(async () => {
      if (caddy && caddy.exitCode === null) {
        caddy.kill('SIGTERM');
        await once(caddy, 'exit');
      }
      upstream?.close();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    });

    it('should write no guest token, query string, admin path or Referer to the journal, and still show the public pages', async () => {
      const requests = [
        `/b/${GUEST_TOKEN}`,
        `/api/guest/${GUEST_TOKEN}/stay.ics`,
        `/api/ical/${ICAL_TOKEN}.ics`,
        `/api/hooks/telegram/${HOOK_SECRET}`,
        `/enter/${SIGN_IN_TOKEN}`,
        `/cabin/1?token=${QUERY_SECRET}`,
        `/${ADMIN_PATH}/`,
        `/${ADMIN_PATH}`,
        `/${ADMIN_PATH}.`,
        `//${ADMIN_PATH}`,
        `/b/${FAILED_TOKEN}`,
        ...RESERVED_PATHS.map((p) => `/${p}`),
      ];
      const before = handled();
      for (const uri of requests) {
        const res = await fetch(`${base}${uri}`, {
          redirect: 'manual',
          headers: { referer: `${base}/b/${REFERER_TOKEN}`, cookie: 'kaspiy_admin=session-cookie' },
        });
        await res.arrayBuffer();
      }
      await until(
        'Caddy to log every request',
        () => (handled() - before >= requests.length ? true : undefined),
        10_000,
      );

      for (const secret of [
        GUEST_TOKEN,
        FAILED_TOKEN,
        ICAL_TOKEN,
        HOOK_SECRET,
        SIGN_IN_TOKEN,
        QUERY_SECRET,
        ADMIN_PATH,
        REFERER_TOKEN,
        'session-cookie',
      ])
        expect(log).not.toContain(secret);
      const seen = uris();
      expect(seen).toEqual(
        expect.arrayContaining([
          '/b/…',
          '/api/guest/…/stay.ics',
          '/api/ical/…',
          '/api/hooks/telegram/…',
          '/enter/…',
          '/cabin/1?…',
          '/…/',
          '/…',
          '//…',
        ]),
      );
      // The request the server dropped (Caddy's «Сайт перезапускается» page) is hidden as well.
      expect(log).toMatch(/"uri": "\/b\/…"[^\n]*"status": 503/);
      // Every first segment the admin path may never take is the public site's, shown as it is.
      expect(seen).toEqual(expect.arrayContaining(RESERVED_PATHS.map((p) => `/${p}`)));
      expect(seen).toContain('/cabins');
    });
  },
);
