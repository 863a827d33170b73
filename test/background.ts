// The project tests (contract, unit, server) yield the CPU to the content journeys beside them
// (vitest.config.ts). Those journeys are the first group's longest path: one file, one step after
// another, each waiting for a rebuild or a page that needs a core now. The project tests have
// time to spare (they ended at ≈ 450 s of the journeys' ≈ 830 s), so they run at a lower
// priority (nice BACKGROUND_NICE) and take what the journeys leave; what any test proves is the
// same, only which process the kernel runs first changes. Raising a nice value needs no
// privileges; where it fails the tests run as before.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Linux gives a thread at nice 5 about a third of the CPU one at 0 gets when both want it (at 10,
 * a tenth: on a machine loaded by other runs a race test and some unit tests then ran past their
 * time). TEST_BACKGROUND_NICE=0 runs the project tests at the journeys' priority, to compare.
 */
export const BACKGROUND_NICE = Number(process.env.TEST_BACKGROUND_NICE ?? 5);

/** Every thread of process `pid` at `nice` (Linux keeps a nice value per thread; new ones inherit their creator's). */
export function renice(pid: number, nice = BACKGROUND_NICE): void {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    threads = [String(pid)];
  }
  for (const tid of threads) {
    try {
      setPriority(Number(tid), nice);
    } catch {
      // Gone, or not ours to change: it only runs at its old priority.
    }
  }
}

/** The processes whose parent is `parent` and whose command is `comm` (from /proc). */
function childrenNamed(parent: number, comm: string): number[] {
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces, so it is read between the parentheses.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && name === comm) found.push(Number(pid));
    } catch {
      // Gone since it was listed.
    }
  }
  return found;
}

/**
 * A global setup of the `worker` project: its tests run inside workerd, where no process can
 * lower its own priority, and the Workers pool starts workerd from vitest's own process (the
 * e2e stack's workerd is wrangler's child, not vitest's). So vitest's workerd children are
 * lowered from here, as they start.
 */
export default function lowerWorkerd() {
  const done = new Set<number>();
  const tick = () => {
    for (const pid of childrenNamed(process.pid, 'workerd')) {
      if (done.has(pid)) continue;
      done.add(pid);
      renice(pid);
    }
  };
  tick();
  const timer = setInterval(tick, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
