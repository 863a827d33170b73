// The <head> script that brings Manrope in without costing the first screen (site/islands/font-loader.ts).
import { createHash } from 'node:crypto';
import { FONTS_KEY } from './font-key.ts';
import { selfRunningScript, type InlineScript } from './inline-script.ts';
import source from '../islands/font-loader.ts?raw';

export function fontScript(files: string[]): Promise<InlineScript> {
  // The files' names carry their content hash, so this changes exactly when a file does.
  const version = createHash('sha256').update(files.join('\n')).digest('base64url').slice(0, 12);
  return selfRunningScript(source, { FONTS_VERSION: JSON.stringify(version), FONTS_KEY: JSON.stringify(FONTS_KEY) });
}
