// `npm run serve`: the self-hosted production server (docs/operations.md «Self-hosting in Russia»; the server
// itself is lib/self-hosted.ts). This file only sets how much memory V8 keeps before any of the
// app is loaded, so the settings hold however the server is started (npm, systemd, the tests).
import { setFlagsFromString } from 'node:v8';

/**
 * V8 sizes the young generation from the machine's memory: on a machine with plenty, its two
 * semi-spaces grew to 64 MB each while the app's modules loaded (TypeScript stripped, parsed) and
 * never gave the pages back. That was 130 of the 290 MB an idle server held, for 20 MB of live
 * objects. 8 MB each keeps a request's garbage young (a scavenge every few dozen requests, each
 * about a millisecond). Set before the first import of the app: V8 reads the flag as the space
 * grows, and it cannot shrink what has grown. A flag given on the command line or NODE_OPTIONS wins.
 */
const SEMI_SPACE_MB = 8;
/*
 * And V8's heap sized for memory rather than speed: it grows the old generation by less after each
 * collection and gives pages back sooner. While a burst of edits rebuilt the demo, the server held
 * 340 MB without it and 145 MB with it; a search answered in the same time (p50 0.8 ms, p95 3.5 ms,
 * the two servers in turns).
 */

const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
if (!/--max-semi-space-size/.test(given)) setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
if (!/--(no-)?optimize-for-size/.test(given)) setFlagsFromString('--optimize-for-size');

await import('./lib/self-hosted.ts');
