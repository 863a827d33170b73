// The load generator's own process: `node bench/load-worker.ts '<json options>'` runs autocannon
// against one or more URLs and prints one JSON line, an array with each URL's throughput and
// exact latency percentiles. autocannon's own summary has no p95, so every response time is kept
// and ranked here.
//
// Several URLs are loaded in turns (bench/load.ts, loadInTurns): the duration is cut into `turns`
// slices and the URLs take one slice each in turn, each after its own warm-up, so that a server
// and the one it is compared with meet the same moments of the machine (another process's pause,
// a busier neighbour on the host), not two different stretches of it; each URL's slices are then
// ranked together.
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

type Options = {
  urls: string[];
  turns: number;
  connections: number;
  durationS: number;
  warmupS: number;
  rate?: number;
  headers?: Record<string, string>;
};
const opts = JSON.parse(process.argv[2] ?? '{}') as Options;

function fire(
  url: string,
  durationS: number,
  rate: number | undefined,
  latencies?: number[],
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: opts.connections,
        duration: durationS,
        ...(rate ? { overallRate: rate } : {}),
        ...(opts.headers ? { headers: opts.headers } : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
      });
    }
  });
}

const orNull = (v: number) => (Number.isFinite(v) ? v : null);
const turns = Math.max(1, opts.turns);
const sliceS = opts.durationS / turns;
const totals = opts.urls.map(() => ({
  requests: 0,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  bytes: 0,
  seconds: 0,
  latencies: [] as number[],
}));

// At a fixed rate, one round more comes first and is not counted. The load generator's own code
// for a fixed rate and for timing each response ran cold in the first slice it measured: that
// slice's p95 was about twice the others' for whichever server went first (always ours), ~0.16
// against ~0.08 ms, and with this round it is like the others (2026-11-27).
for (let turn = opts.rate ? -1 : 0; turn < turns; turn++) {
  for (const [i, url] of opts.urls.entries()) {
    // The warm-up runs as fast as the server answers, whatever the rate measured after it: at
    // 100 req/s its 100 requests left a server whose code had gone cold (our server after the
    // Lighthouse stage: its fast path back in V8's baseline tier, seen with perf) twice as slow a
    // request as warm for minutes, against a control started just before. Thousands of requests
    // bring both to their optimised code.
    // Each response is timed here too, so the measuring code is as warm as the server's.
    if (opts.warmupS > 0) await fire(url, opts.warmupS, undefined, []);
    if (turn < 0) {
      await fire(url, sliceS, opts.rate, []);
      continue;
    }
    const r = await fire(url, sliceS, opts.rate, totals[i]!.latencies);
    const t = totals[i]!;
    t.requests += r.requests.total;
    t.non2xx += r.non2xx;
    t.errors += r.errors;
    t.timeouts += r.timeouts;
    t.bytes += r.throughput.total;
    t.seconds += r.duration;
  }
}

console.log(
  JSON.stringify(
    opts.urls.map((url, i) => {
      const t = totals[i]!;
      return {
        url,
        connections: opts.connections,
        durationS: opts.durationS,
        rate: opts.rate ?? null,
        requests: t.requests,
        rps: t.seconds > 0 ? t.requests / t.seconds : 0,
        non2xx: t.non2xx,
        errors: t.errors,
        timeouts: t.timeouts,
        bytesPerResponse: t.requests > 0 ? Math.round(t.bytes / t.requests) : 0,
        p50: orNull(percentile(t.latencies, 50)),
        p95: orNull(percentile(t.latencies, 95)),
        p99: orNull(percentile(t.latencies, 99)),
        // A loop, not Math.max(...latencies): a fast server gives more responses than a call takes arguments.
        max: t.latencies.length ? t.latencies.reduce((a, b) => (b > a ? b : a)) : null,
      };
    }),
  ),
);
