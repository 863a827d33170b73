/**
 * Calls `onDown` when `url`, once seen answering, has failed every check for `downMs`: no
 * connection, no answer within `timeoutMs`, or an answer that is not 2xx. workerd can crash under
 * `wrangler dev` on a busy two-core machine (`jsg.Error: internal error`); wrangler starts a new
 * one, which takes connections on the site's port and answers none of them, and wrangler itself
 * runs on, so no exit tells anyone to start it again (seen by killing workerd under `npm start`:
 * every request hung for the 10 minutes watched). After `onDown` the watch waits to see the site
 * answer again before it counts failures anew, so a server being started again is given its time.
 */
export function watchServing(
  url: string,
  onDown: () => void,
  {
    everyMs = 2000,
    timeoutMs = 5000,
    downMs = 20_000,
    onAnswer,
  }: {
    everyMs?: number;
    timeoutMs?: number;
    downMs?: number;
    /** Given each 2xx answer's body as JSON (the stack reads the content version from it). */
    onAnswer?: (body: unknown) => void;
  } = {},
): { stop: () => void } {
  let seenUp = false;
  let failingSince: number | null = null;
  let checking = false;
  let stopped = false;
  const answers = () =>
    fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
      async (res) => {
        if (!res.ok || !onAnswer) {
          await res.body?.cancel();
          return res.ok;
        }
        onAnswer(await res.json().catch(() => null));
        return true;
      },
      () => false,
    );
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      const up = await answers();
      if (stopped) return;
      if (up) {
        seenUp = true;
        failingSince = null;
      } else if (seenUp) {
        failingSince ??= Date.now();
        if (Date.now() - failingSince >= downMs) {
          seenUp = false;
          failingSince = null;
          onDown();
        }
      }
    } finally {
      checking = false;
    }
  }, everyMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
