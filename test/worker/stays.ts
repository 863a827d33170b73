import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { answerOf, type Booked, client, jsonOf, jsonRequest, validBooking } from './helpers.ts';

// What holds a cabin's nights, made the way the owner and the visitor make it (through the API),
// except an imported event, which only a feed's fetch writes: search and occupancy tests share these.

export async function block(cookie: string, cabinId: number, start: string, end: string, note = 'Ремонт') {
  const res = await client({ cookie }).api.admin.cabins[':id'].blocks.$post({
    param: { id: String(cabinId) },
    json: { start, end, note },
  });
  return (await answerOf(res, 201)).id;
}

export async function feedEvent(cabinId: number, start: string, end: string, name = 'Суточно') {
  const feed = await env.DB.prepare(
    "INSERT INTO calendar_feeds (cabin_id, name, url) VALUES (?, ?, 'https://sutochno.invalid/cal.ics') RETURNING id",
  )
    .bind(cabinId, name)
    .first<{ id: number }>();
  await env.DB.prepare('INSERT INTO feed_events (feed_id, cabin_id, uid, start, "end") VALUES (?, ?, ?, ?, ?)')
    .bind(feed!.id, cabinId, `${start}@x`, start, end)
    .run();
}

/** A request sent by a visitor and, when asked, confirmed by the owner. */
export async function booking(
  cookie: string,
  cabinId: number,
  checkIn: string,
  checkOut: string,
  confirm = true,
  name = 'Анна',
) {
  const res = await jsonRequest('POST', '/api/bookings', validBooking(cabinId, { checkIn, checkOut, name }));
  const { id } = await jsonOf<Booked>(res, 201);
  if (confirm)
    expect((await jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })).status).toBe(
      200,
    );
  return id;
}

/**
 * The storage ports over the real database, counting what reaches it: `queries`, statements
 * prepared; `roundTrips`, each statement run on its own (all, raw, first, run) and each batch,
 * as each is one exchange with D1; `statements`, those run, alone or in a batch.
 */
export function countingDb() {
  const counter = { queries: 0, roundTrips: 0, statements: 0, env: { ...env } as typeof env };
  const real = env.DB;
  // Batches are given the real statements back (D1's batch reads their own fields).
  const targets = new WeakMap<object, D1PreparedStatement>();
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== 'function') return value;
        if (name === 'bind') return (...args: unknown[]) => counted(value.apply(target, args) as D1PreparedStatement);
        if (name === 'all' || name === 'raw' || name === 'first' || name === 'run') {
          return (...args: unknown[]) => {
            counter.roundTrips += 1;
            counter.statements += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    targets.set(proxy, statement);
    return proxy;
  };
  counter.env.DB = {
    prepare: (sql: string) => {
      counter.queries += 1;
      return counted(real.prepare(sql));
    },
    batch: (statements: D1PreparedStatement[]) => {
      counter.roundTrips += 1;
      counter.statements += statements.length;
      return real.batch(statements.map((s) => targets.get(s) ?? s));
    },
  } as typeof env.DB;
  return counter;
}
