import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { jsonRequest, validBooking } from './helpers.ts';

// What holds a cabin's nights, made the way the owner and the visitor make it (through the API),
// except an imported event, which only a feed's fetch writes: search and occupancy tests share these.

export async function block(cookie: string, cabinId: number, start: string, end: string, note = 'Ремонт') {
  const res = await jsonRequest('POST', `/api/admin/cabins/${cabinId}/blocks`, { start, end, note }, { cookie });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

export async function feedEvent(cabinId: number, start: string, end: string, name = 'Суточно') {
  const feed = await env.DB.prepare("INSERT INTO calendar_feeds (cabin_id, name, url) VALUES (?, ?, 'https://sutochno.invalid/cal.ics') RETURNING id")
    .bind(cabinId, name)
    .first<{ id: number }>();
  await env.DB.prepare('INSERT INTO feed_events (feed_id, cabin_id, uid, start, "end") VALUES (?, ?, ?, ?, ?)').bind(feed!.id, cabinId, `${start}@x`, start, end).run();
}

/** A request sent by a visitor and, when asked, confirmed by the owner. */
export async function booking(cookie: string, cabinId: number, checkIn: string, checkOut: string, confirm = true, name = 'Анна') {
  const res = await jsonRequest('POST', '/api/bookings', validBooking(cabinId, { checkIn, checkOut, name }));
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: number }).id;
  if (confirm) expect((await jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })).status).toBe(200);
  return id;
}

/** The storage ports with every SQL statement counted: a query function's reads, whatever it reads. */
export function countingDb() {
  const counter = { queries: 0, env: { ...env } as typeof env };
  counter.env.DB = {
    prepare: (sql: string) => {
      counter.queries += 1;
      return env.DB.prepare(sql);
    },
    batch: env.DB.batch.bind(env.DB),
  } as typeof env.DB;
  return counter;
}

