import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BookingChannel } from '../../schema/booking-options.ts';
import type { CabinInput } from '../../schema/cabins.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { startNodeServer, type NodeServer, type NodeServerOptions } from '../../worker/platform/node/server.ts';
import { createCabin } from '../../worker/queries/cabins.ts';
import { apiAt, bodyOf } from '../typed-api.ts';

// What the self-hosted server's tests set up alike: the server on a loopback port with the
// project's migrations, a temporary folder for its data, the owner's sign-in, and the cabin,
// photo and booking request a test starts from.

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The first bytes of a JPEG: the upload route tells the type by them. */
export const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0xff, 0xd9,
]);

/** The self-hosted server on a free port of 127.0.0.1, its database migrated from migrations/. */
export const startServer = (options: Omit<NodeServerOptions, 'migrationsDir' | 'port' | 'host'>) =>
  startNodeServer({ migrationsDir: path.join(ROOT, 'migrations'), port: 0, host: '127.0.0.1', ...options });

/**
 * A fresh folder under the system's temporary one, made before the tests of the file (or describe
 * block) that calls this and removed after them; read it inside a test or hook. Its removal is the
 * last of the after-all hooks (vitest runs them in reverse), so servers in it are closed first.
 */
export function tempDir(name: string): () => string {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), `kaspiy-${name}-`));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return () => dir;
}

/** Signs the owner in (`headers` added to the request) and gives the cookies the sign-in set, as a Cookie header. */
export async function signIn(url: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username: 'admin', password }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The owner's session on a server: signs in, then calls /api with the cookie and reads the JSON answer. */
export async function ownerApi(url: string, password: string) {
  const cookie = await signIn(url, password);
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer as the shape it expects; callers that care name T
  return async <T = any>(method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}/api${p}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as T };
  };
}

/**
 * Requests as the signed-in owner to a server the file starts later (`at` is read on each call):
 * `api` adds the cookie to a fetch, `putTitle` saves the home page's title, `heroTitle` reads it.
 */
export function ownerRequests(at: () => { url: string; cookie: string }) {
  const api = (p: string, init: RequestInit = {}) => {
    const { url, cookie } = at();
    return fetch(`${url}${p}`, { ...init, headers: { cookie, ...init.headers } });
  };
  const putTitle = (heroTitle: string) =>
    api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ heroTitle }),
    });
  const heroTitle = async () => {
    const { url, cookie } = at();
    return (await (await apiAt(url, { cookie }).settings.$get()).json()).heroTitle;
  };
  return { api, putTitle, heroTitle };
}

/** A photo upload as the panel sends one, with the owner's cookie. */
export function uploadPhoto(url: string, cookie: string, name = 'photo.jpg') {
  const form = new FormData();
  form.append('image', new File([JPEG], name, { type: 'image/jpeg' }));
  return apiAt(url, { cookie }).upload.$post(undefined, { init: { body: form } });
}

/** A cabin by the sea as the owner adds one, straight into the server's database. */
export const addCabin = (s: NodeServer, fields: Partial<CabinInput> = {}) =>
  createCabin(s.storage.bindings, {
    name: 'Домик у моря',
    description: 'У самого моря',
    pricePerNight: 7000,
    bedrooms: 1,
    bathrooms: 1,
    maxGuests: 4,
    amenities: [],
    images: [],
    location: '',
    distanceToSea: '',
    featured: false,
    active: true,
    ...fields,
  });

export type BookingFields = {
  cabinId: number;
  checkIn: string;
  checkOut: string;
  guests: number;
  name: string;
  phone: string;
  email: string;
  comment: string;
  channel: BookingChannel;
};

/** A visitor's booking request, from `ip` when given (the server trusts X-Real-IP behind its proxy). */
export const postBooking = (url: string, fields: BookingFields, ip?: string) =>
  apiAt(url, { headers: ip ? { 'x-real-ip': ip } : {} }).bookings.$post({
    json: { ...fields, consent: true, website: '' },
  });

/**
 * A new cabin and a guest's request for it with an e-mail, as a visitor sends it (Мадина, two
 * guests, WhatsApp), `ahead` days from today for `nights`, from `ip`: the cabin, its check-in and
 * the booking's id.
 */
export async function requestStay(s: NodeServer, opts: { ahead: number; nights: number; email: string; ip: string }) {
  const cabin = await addCabin(s);
  const checkIn = addDays(todayInMoscow(), opts.ahead);
  const res = await postBooking(
    s.url,
    {
      cabinId: cabin.id,
      checkIn,
      checkOut: addDays(checkIn, opts.nights),
      guests: 2,
      name: 'Мадина Гасанова',
      phone: '+7 928 123-45-67',
      email: opts.email,
      comment: '',
      channel: 'whatsapp',
    },
    opts.ip,
  );
  expect(res.status).toBe(201);
  const { id } = await bodyOf(res, 201);
  return { cabin, checkIn, id };
}
