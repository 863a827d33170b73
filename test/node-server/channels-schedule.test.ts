import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAvitoStandIn, type AvitoStandIn } from '../../stand-ins/avito-api.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { until as untilWithin } from './until.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { signIn, startServer, tempDir } from './test-server.ts';

// The self-hosted server's own schedule (the Cron Trigger's twin) with Avito: a change reaches
// Avito by the server's timer, with nobody pressing anything, and survives a restart: what Avito
// last accepted is kept in the database, so a change made while the server was down goes out at
// the first tick after it comes back. The tick here is 150 ms instead of a minute.

const TICK_MS = 150;
const ACCOUNT = { clientId: 'schedule-client', clientSecret: 'schedule-secret', userId: 777001, items: [5_000_001] };
const day = (n: number) => addDays(todayInMoscow(), n);

let avito: AvitoStandIn;
const dataDir = tempDir('channels');
let server: NodeServer;
let cookie = '';

const start = () =>
  startServer({
    dataDir: dataDir(),
    adminPassword: 'schedule-test-password',
    shutdownGraceMs: 500,
    bindings: { AVITO_API_URL: avito.apiUrl },
    scheduleTickMs: TICK_MS,
  });
const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${server.url}/api${p}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const pushedBusy = () => avito.pushedBusy(ACCOUNT.items[0]!).last;
const sameAs = (want: unknown) => () => (JSON.stringify(pushedBusy()) === JSON.stringify(want) ? true : undefined);

const until = <T>(what: string, read: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000) =>
  untilWithin(what, read, timeoutMs);

beforeAll(async () => {
  avito = await startAvitoStandIn();
  avito.addClient(ACCOUNT);
  server = await start();
  cookie = await signIn(server.url, 'schedule-test-password');
});
afterAll(async () => {
  await server.close();
  await avito.close();
});

describe("Avito on the self-hosted server's own schedule", () => {
  it('should send a block to Avito by itself, read an Avito booking by itself, and send a change made while the server was down once it is back', async () => {
    const cabin = await api('POST', '/cabins', {
      name: 'Домик',
      description: 'У моря',
      pricePerNight: 5000,
      maxGuests: 4,
    });
    expect(cabin.status).toBe(201);
    const id = cabin.json.id as number;
    expect(
      (
        await api('PUT', '/admin/channels/avito', {
          clientId: ACCOUNT.clientId,
          clientSecret: ACCOUNT.clientSecret,
          userId: ACCOUNT.userId,
        })
      ).status,
    ).toBe(200);
    expect((await api('PUT', `/admin/cabins/${id}/channels`, { avitoItemId: ACCOUNT.items[0] })).status).toBe(200);

    expect(
      (await api('POST', `/admin/cabins/${id}/blocks`, { start: day(4), end: day(6), note: 'Звонок' })).status,
    ).toBe(201);
    await until('the block at Avito', sameAs([{ date_start: day(4), date_end: day(6), type: 'manual' }]));

    // A booking made on Avito: busy here at the fifth tick at the latest (the pull's period).
    avito.addBooking(ACCOUNT.items[0]!, { check_in: day(10), check_out: day(12), guest_count: 2, base_price: 10000 });
    await until('the Avito booking busy here', async () => {
      const answer = await apiAt(server.url, { cookie }).cabins[':id'].availability.$get({ param: { id: String(id) } });
      const { busy } = await bodyOf(answer, 200);
      return busy.some((b) => b.start === day(10)) ? true : undefined;
    });

    // Down: another process (a restore, a script) closes nights in the database meanwhile.
    await server.close();
    const db = new DatabaseSync(path.join(dataDir(), 'kaspiy.sqlite'));
    db.prepare('INSERT INTO calendar_blocks (cabin_id, start, "end", note, created_at) VALUES (?, ?, ?, \'\', ?)').run(
      id,
      day(20),
      day(23),
      new Date().toISOString(),
    );
    db.close();
    server = await start();
    await until(
      'the block made while down at Avito',
      sameAs([
        { date_start: day(4), date_end: day(6), type: 'manual' },
        { date_start: day(20), date_end: day(23), type: 'manual' },
      ]),
    );
  });
});
