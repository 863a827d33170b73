// The self-hosted server's long polling of the guests' Telegram and MAX bots (docs/architecture.md
// «Guests' messages, once»). A server without a public address has no webhook: the schedule's
// minute would let a guest wait up to a minute for the automatic answer and the owner for the
// alert, so each bot is read here with a request that waits for the next update and is made
// again at once. On Workers the Cron Trigger's minute reads them (a Worker cannot hold a loop).
import type { Bindings } from '../../env.ts';
import { forLog } from '../../lib/for-log.ts';
import { pollMaxQuietly } from '../../notify/guest-max.ts';
import { pollTelegram } from '../../notify/guest-telegram.ts';

/** How long one read waits for an update: under the 60 s proxies and NATs often cut an idle connection at. */
export const LONG_POLL_WAIT_S = 25;
/** The pause after a read that came back at once with nothing (no bot, webhook mode, a refusal). */
const IDLE_MS = 5_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** One bot's loop: read (waiting), take what came, again; a pause when a read had nothing to wait on. */
async function loop(read: (signal: AbortSignal) => Promise<number>, what: string, signal: AbortSignal) {
  while (!signal.aborted) {
    const began = Date.now();
    const got = await read(signal).catch((err) => {
      if (!signal.aborted) console.error(`Reading the ${what} failed`, forLog(err));
      return 0;
    });
    if (got === 0 && Date.now() - began < 1_000) await pause(IDLE_MS, signal);
  }
}

/** Starts both bots' loops; `stop` ends a read in flight and resolves once neither takes anything more. */
export function startMessengerPolling(env: Bindings, waitS = LONG_POLL_WAIT_S): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const { signal } = stopping;
  const loops = Promise.all([
    loop((s) => pollTelegram(env, waitS, s), 'guests’ Telegram bot', signal),
    loop((s) => pollMaxQuietly(env, waitS, s), 'MAX bot', signal),
  ]);
  return {
    stop() {
      stopping.abort();
      return loops.then(() => undefined);
    },
  };
}
