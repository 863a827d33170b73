import { watch, type FSWatcher } from 'node:fs';
import { oncePerTurn } from './memory-answers.ts';

/** How long the folders stay quiet before a reading is trusted without asking again. */
export const SETTLE_MS = 500;
/** How often a trusted reading is taken again anyway (see below why). */
const RECHECK_MS = 1000;

export type ReadOnChange<T> = (() => T) & {
  /** Stops watching (the server closes). */
  close(): void;
};

/**
 * A reading of what other processes change on disk (another connection's commit, the live
 * build), taken only while the folders it comes from may be changing.
 *
 * Read once per turn of the event loop, the reading cost every request its system calls (SQLite
 * locks the WAL index to read data_version; build.json is stat'ed): at 100 requests a second over
 * one connection, where every request is a turn of its own, 10–30 µs of a kept answer's p50 of
 * 70–120 µs (2026-11-27, bench/speed-changes.md). Here the kernel says when a file in one of `dirs`
 * changes (inotify, through fs.watch), and until then the last reading stands:
 * - a write by another process reaches its folder (its WAL frames, build.json renamed in) before
 *   that process can tell anyone it is done, so the notice is ready before the request of a visitor
 *   who comes after, and Node takes ready events in the order they came: the notice first. From
 *   then on the reading is taken once per turn again, until the folders have been quiet for
 *   SETTLE_MS and one more reading is taken;
 * - a commit becomes visible a moment after its WAL frames are written (the WAL index is shared
 *   memory, which sends no notice): the quiet time covers that moment, and a reading every
 *   RECHECK_MS bounds anything later (a process stopped between the two, a notice handled late
 *   on a busy server) to a second;
 * - where a folder cannot be watched (missing yet, the system's limit of watches reached), the
 *   reading is taken once per turn, as before, and watching is tried again after SETTLE_MS.
 */
export function readOnChange<T>(read: () => T, dirs: string[]): ReadOnChange<T> {
  const perTurn = oncePerTurn(read);
  let watchers: FSWatcher[] = [];
  let trusted: { value: T } | null = null;
  let closed = false;
  let settleTimer: NodeJS.Timeout | undefined;

  const unwatch = () => {
    for (const w of watchers) w.close();
    watchers = [];
  };
  const changed = () => {
    trusted = null;
    clearTimeout(settleTimer);
    if (!closed) settleTimer = setTimeout(settle, SETTLE_MS).unref();
  };
  /** Watches again (a folder may have been made or replaced meanwhile), then takes the reading it trusts. */
  function settle() {
    unwatch();
    try {
      for (const dir of new Set(dirs)) {
        const w = watch(dir, { persistent: false }, changed);
        w.on('error', changed);
        watchers.push(w);
      }
      trusted = { value: read() };
    } catch {
      // Not watched, or not readable now (the database busy): once per turn until the next try.
      unwatch();
      changed();
    }
  }
  const recheck = setInterval(() => {
    if (!trusted) return;
    try {
      trusted = { value: read() };
    } catch {
      changed();
    }
  }, RECHECK_MS).unref();

  settle();
  return Object.assign(() => (trusted ? trusted.value : perTurn()), {
    close() {
      closed = true;
      clearTimeout(settleTimer);
      clearInterval(recheck);
      unwatch();
    },
  });
}
