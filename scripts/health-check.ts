// `npm run health`: asks the running self-hosted server how it is (GET /api/health), for the
// deploy kit's watchdog timer and for an owner at the console.
//   exit 0  healthy: the database answers and a current site is served;
//   exit 1  the server answered 503 with a reason (no site built yet, the last build failed, the
//           database): a restart would not cure it, the reason goes to the log for the owner;
//   exit 2  no answer in time (the process is down or hung): the watchdog restarts it.
// The address: --url, else http://HOST:PORT from the environment (/etc/kaspiy.env), as serve.ts.
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, timeout: { type: 'string', default: '10' } } });
const host = process.env.HOST ?? '127.0.0.1';
const base = values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? 3000}`;
const url = new URL('/api/health', base);

try {
  const res = await fetch(url, { signal: AbortSignal.timeout(Number(values.timeout) * 1000) });
  const body = (await res.json().catch(() => ({}))) as {
    ok?: boolean;
    error?: string;
    contentVersion?: number;
    builtAt?: string;
  };
  if (res.status === 200 && body.ok) {
    console.log(
      `✓ ${url.origin}: the site (content version ${body.contentVersion}, built ${body.builtAt}) and the database answer.`,
    );
    process.exit(0);
  }
  console.error(
    `✖ ${url.origin} answered ${res.status}: ${body.error ?? 'no reason given'}. See journalctl -u kaspiy for the details.`,
  );
  process.exit(1);
} catch (err) {
  const why =
    err instanceof Error && err.name === 'TimeoutError'
      ? `no answer within ${values.timeout} s`
      : (err as Error).message;
  console.error(`✖ ${url.origin} did not answer (${why}): the server is down or hung.`);
  process.exit(2);
}
