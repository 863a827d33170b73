// The process behind warm-astro.ts: Astro loaded once, one `build()` per message. Astro, Vite and
// the React integration take about half of a cold `astro build`'s CPU just to load; here only
// the first build pays it. Each build's environment comes with its message.
import { rename, rm } from 'node:fs/promises';
import { build } from 'astro';
import { ROOT } from './tools.ts';

export type BuildRequest = { outDir: string; env: Record<string, string> };
export type BuildReply = { ok: boolean };

// The server that started it is gone (or let it go): nothing is left to build for.
process.on('disconnect', () => process.exit(0));

let builds = 0;

/**
 * Each build in a folder of its own, then renamed to the one asked for. Astro renders the pages by
 * importing the chunks it wrote below its outDir, and Node keeps a module it imported once: at
 * the same path, the second build would run the first build's modules again, with the content
 * they read once per build (site/lib/content.ts) still in them.
 */
async function buildInto(outDir: string): Promise<void> {
  const own = `${outDir}-${process.pid}-${++builds}`;
  await rm(own, { recursive: true, force: true });
  try {
    await build({ root: ROOT, outDir: own });
    await rm(outDir, { recursive: true, force: true });
    await rename(own, outDir);
  } finally {
    await rm(own, { recursive: true, force: true });
  }
}

process.on('message', (request: BuildRequest) => {
  Object.assign(process.env, request.env);
  buildInto(request.outDir).then(
    () => process.send?.({ ok: true } satisfies BuildReply),
    (err: unknown) => {
      // Printed, so the build's output (which the parent keeps) ends with the cause.
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.send?.({ ok: false } satisfies BuildReply);
    },
  );
});
