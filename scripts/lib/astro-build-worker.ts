// The process behind warm-astro.ts: Astro loaded once, one `build()` per message. Astro, Vite and
// the React integration take about half of a cold `astro build`'s CPU just to load; here only
// the first build pays it. Each build's environment comes with its message.
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'astro';
import { ROOT } from './tools.ts';

export type BuildRequest = { outDir: string; env: Record<string, string> };
/** A failed build's reply carries its error too: the IPC message can arrive before the output pipe's last lines. */
export type BuildReply = { ok: true; rssMb: number } | { ok: false; error: string };

// The server that started it is gone (or let it go): nothing is left to build for.
process.on('disconnect', () => process.exit(0));

let builds = 0;

/**
 * Each build in a folder of its own inside the project, then moved to the one asked for. Astro
 * renders the pages by importing the chunks it writes below its outDir (below a fixed folder of
 * the project when outDir is outside it), and Node keeps a module it imported once: at the same
 * path, the second build ran the first build's modules again, with the content they read once
 * per build (site/lib/content.ts) still in them.
 */
async function buildInto(outDir: string): Promise<void> {
  const own = path.join(ROOT, 'node_modules/.cache/astro-warm', `${process.pid}-${++builds}`);
  await rm(own, { recursive: true, force: true });
  try {
    await build({ root: ROOT, outDir: own });
    await rm(outDir, { recursive: true, force: true });
    await mkdir(path.dirname(outDir), { recursive: true });
    await rename(own, outDir).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await cp(own, outDir, { recursive: true });
    });
  } finally {
    await rm(own, { recursive: true, force: true });
  }
}

process.on('message', (request: BuildRequest) => {
  Object.assign(process.env, request.env);
  buildInto(request.outDir).then(
    // What the process holds now tells warm-astro.ts whether to keep it for the next build.
    () => process.send?.({ ok: true, rssMb: Math.round(process.memoryUsage.rss() / 1048576) } satisfies BuildReply),
    (err: unknown) => {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.error(error);
      process.send?.({ ok: false, error } satisfies BuildReply);
    },
  );
});
