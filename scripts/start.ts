import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startStack } from './lib/stack.ts';
import { ROOT } from './lib/tools.ts';

/** The local admin password: ADMIN_PASSWORD in .dev.vars if set, else the demo one. */
async function localAdminPassword(): Promise<string> {
  const vars = await readFile(path.join(ROOT, '.dev.vars'), 'utf8').catch(() => '');
  return /^ADMIN_PASSWORD\s*=\s*"?([^"\n]+)"?/m.exec(vars)?.[1] ?? 'caspian-demo';
}

const port = Number(process.env.PORT ?? 8787);
const stack = await startStack({
  port,
  persistTo: '.wrangler/state',
  assetsDir: path.join(ROOT, 'dist'),
  adminPassword: await localAdminPassword(),
});
console.log(`
  «Каспий» is running: ${stack.url}
  Admin panel:         ${stack.url}/admin   (login admin, password from README)
  Edits in the panel rebuild the public site by themselves. Ctrl+C stops.
`);
const shutdown = () => void stack.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
