import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file below `dir`, as paths relative to it (the built site, a staging folder). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}
