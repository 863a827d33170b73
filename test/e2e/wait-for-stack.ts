import { readFile } from 'node:fs/promises';
import { beforeAll, inject } from 'vitest';

// Every e2e file starts once the shared stack is up (test/e2e/global-setup.ts starts it in the
// background while the contract tests run), and fails with the stack's own error if it could not.
const PATIENCE_MS = 300_000;

beforeAll(async () => {
  const file = inject('e2eReadyFile');
  const until = Date.now() + PATIENCE_MS;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text) {
      const ready = JSON.parse(text) as { ok: boolean; error?: string };
      if (ready.ok) return;
      throw new Error(`The e2e stack could not start:\n${ready.error}`);
    }
    if (Date.now() > until) throw new Error(`The e2e stack was not up after ${PATIENCE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, PATIENCE_MS + 5_000);
