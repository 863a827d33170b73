// The server's own time for a search at 1,500 cabins, without HTTP, the client or the machine's
// other work between requests: the self-hosted server's storage and the app in this process, the
// bench's data (demo cabins with every pricing rule, cloned to 1,500), and GET /api/search for other
// dates each time, through app.fetch. Also counts the database round trips a search makes, and
// then times 60 searches over HTTP as the bench's «search alone» does (its server in this process).
//
//   node bench/search-in-process.ts [searches=300]
//
// Written for bench/speed-changes.md (2026-11-28): the figures there are this script's, in turns
// with the code before the change (a git worktree of the commit before, this file copied in).
import { loadavg } from 'node:os';
import { growCabinsIn } from './cabins.ts';
import { serialLatency } from './latency.ts';
import { applyPricingRules } from './pricing-rules.ts';
import { adminLogin } from './edit-to-live.ts';
import { searchPath } from './scale.ts';
import { startTempServer } from './temp-server.ts';
import { seedIfEmpty } from '../scripts/seed.ts';
import app from '../worker/index.ts';
import type { DatabasePort } from '../worker/platform/ports.ts';

const searches = Number(process.argv[2] ?? 300);
const PASSWORD = 'bench-password-1';

const { server, close } = await startTempServer('search-profile', { adminPassword: PASSWORD, shutdownGraceMs: 100 });
try {
  await seedIfEmpty(server.storage.bindings);
  await applyPricingRules(server.url, await adminLogin(server.url, PASSWORD));
  const { active } = await growCabinsIn(server.storage.bindings, 1500);

  // Round trips: every statement run on its own, and every batch, as the app's port sees them.
  const real = server.storage.bindings.DB;
  const trips = { count: 0 };
  const counted = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== 'function') return value;
        if (name === 'bind') return (...args: unknown[]) => counted(value.apply(target, args) as D1PreparedStatement);
        if (['all', 'raw', 'first', 'run'].includes(String(name)))
          return (...args: unknown[]) => ((trips.count += 1), value.apply(target, args));
        return value.bind(target);
      },
    });
  const DB: DatabasePort = {
    prepare: (sql) => counted(real.prepare(sql)),
    batch: (statements) => ((trips.count += 1), real.batch(statements)),
  };
  const bindings = { ...server.storage.bindings, DB };
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

  const times: number[] = [];
  // CPU time of this process per search: what the search itself costs, whatever else the machine runs.
  const cpu: number[] = [];
  let bytes = 0;
  let results = 0;
  let tripsEach = 0;
  for (let i = 0; i < searches + 10; i++) {
    // Dates 31 to ~120 days ahead, over and over: each differs from the one before, as in the bench.
    const req = new Request(`http://127.0.0.1${searchPath(1 + (i % 90))}`);
    trips.count = 0;
    const t = performance.now();
    const c = process.cpuUsage();
    const res = await app.fetch(req, bindings, ctx);
    const body = await res.arrayBuffer();
    const ms = performance.now() - t;
    const used = process.cpuUsage(c);
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    if (i < 10) continue; // warm-up
    times.push(ms);
    cpu.push((used.user + used.system) / 1000);
    bytes = body.byteLength;
    tripsEach = trips.count;
    if (i === 10) results = (JSON.parse(new TextDecoder().decode(body)) as { results: unknown[] }).results.length;
  }
  const figures = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (p: number) =>
      Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2));
    return {
      p50: at(50),
      p95: at(95),
      mean: Number((list.reduce((a, b) => a + b, 0) / list.length).toFixed(2)),
      min: Number(sorted[0]!.toFixed(2)),
    };
  };
  // The same over HTTP as the bench's «search alone» asks it (bench/scale.ts): the server with its
  // kept answers and compression, the client reading the whole answer, 60 searches for other dates.
  // The client's kept-alive connection has sat idle through the loop above, past the server's
  // keep-alive time: a first request may find it closed under it (ECONNRESET), so one is spent.
  await fetch(`${server.url}/api/health`).then(
    (r) => r.arrayBuffer(),
    () => {},
  );
  const http = await serialLatency((i) => `${server.url}${searchPath(100 + i)}`, {
    count: 60,
    min: 60,
    budgetMs: 60_000,
    warmup: 3,
  });
  console.log(
    JSON.stringify({
      cabins: active,
      results,
      bytes,
      searches: times.length,
      roundTrips: tripsEach,
      wallMs: figures(times),
      cpuMs: figures(cpu),
      httpAlone: http,
      load: loadavg()[0]!.toFixed(2),
    }),
  );
} finally {
  await close();
}
