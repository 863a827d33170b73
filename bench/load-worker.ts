// The load generator's own process: `node bench/load-worker.ts '<json options>'` runs autocannon
// against one URL and prints one JSON line with throughput and exact latency percentiles.
// autocannon's own summary has no p95, so every response time is kept and ranked here.
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

type Options = { url: string; connections: number; durationS: number; warmupS: number; rate?: number; headers?: Record<string, string> };
const opts = JSON.parse(process.argv[2] ?? '{}') as Options;

function fire(durationS: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: opts.url, connections: opts.connections, duration: durationS, ...(opts.rate ? { overallRate: opts.rate } : {}), ...(opts.headers ? { headers: opts.headers } : {}) }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    if (latencies) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
      });
    }
  });
}

const orNull = (v: number) => (Number.isFinite(v) ? v : null);

if (opts.warmupS > 0) await fire(opts.warmupS);
const latencies: number[] = [];
const r = await fire(opts.durationS, latencies);
console.log(
  JSON.stringify({
    url: opts.url,
    connections: opts.connections,
    durationS: opts.durationS,
    rate: opts.rate ?? null,
    requests: r.requests.total,
    rps: r.requests.average,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerResponse: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
    p50: orNull(percentile(latencies, 50)),
    p95: orNull(percentile(latencies, 95)),
    p99: orNull(percentile(latencies, 99)),
    // A loop, not Math.max(...latencies): a fast server gives more responses than a call takes arguments.
    max: latencies.length ? latencies.reduce((a, b) => (b > a ? b : a)) : null,
  }),
);
