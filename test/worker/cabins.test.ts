import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { API_CABINS_PAGE_SIZE, CABIN_DEFAULTS } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { Cabin } from '../../schema/tables.ts';
import { createCabin, deleteCabin, getCabin, listCabins, updateCabin } from '../../worker/queries/cabins.ts';
import {
  client,
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  sampleCabin,
  seedCabin,
  send,
} from './helpers.ts';

beforeEach(resetDataWithAdmin);

describe('cabin queries', () => {
  it('should give a new cabin the defaults (CABIN_DEFAULTS) when fields are left out', async () => {
    const cabin = await createCabin(env, { name: 'Минимум', description: 'Только обязательное', pricePerNight: 1000 });
    expect(cabin).toMatchObject({ ...CABIN_DEFAULTS, location: '', distanceToSea: '', amenities: [], images: [] });
    expect(CABIN_DEFAULTS).toEqual({ bedrooms: 1, bathrooms: 1, maxGuests: 2, active: true, featured: false });
  });

  it('should list only active cabins to visitors and all of them to the admin', async () => {
    const shown = await seedCabin({ name: 'Видимый' });
    const hidden = await seedCabin({ name: 'Скрытый', active: false });
    expect((await listCabins(env)).map((c) => c.id)).toEqual([shown.id]);
    expect((await listCabins(env, { includeInactive: true })).map((c) => c.id)).toEqual([shown.id, hidden.id]);
  });

  it('should keep fields a partial update does not name', async () => {
    const cabin = await seedCabin({ bedrooms: 3, featured: true });
    const updated = await updateCabin(env, cabin.id, { pricePerNight: 9999 });
    expect(updated).toEqual({ ...cabin, pricePerNight: 9999 });
    expect(await getCabin(env, cabin.id)).toEqual(updated);
  });

  it('should report a missing cabin on update and delete', async () => {
    expect(await updateCabin(env, 424242, { name: 'x' })).toBeUndefined();
    expect(await deleteCabin(env, 424242)).toBe('missing');
    const cabin = await seedCabin();
    expect(await deleteCabin(env, cabin.id)).toBe('deleted');
    expect(await getCabin(env, cabin.id)).toBeUndefined();
  });
});

describe('public cabin routes', () => {
  it('should list active cabins only, with every field of a cabin', async () => {
    const shown = await seedCabin({ name: 'Видимый', featured: true });
    await seedCabin({ name: 'Скрытый', active: false });
    const res = await client().api.cabins.$get({ query: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const list = await res.json();
    expect(list).toEqual([shown]);
  });

  it('should show one active cabin by id', async () => {
    const cabin = await seedCabin();
    const res = await client().api.cabins[':id'].$get({ param: { id: String(cabin.id) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(cabin);
  });

  it('should answer 404 for an inactive cabin, as if it did not exist', async () => {
    const hidden = await seedCabin({ active: false });
    await expectError(await send('GET', `/api/cabins/${hidden.id}`), 404, MSG.cabinNotFound);
    await expectError(await send('GET', '/api/cabins/999999'), 404, MSG.cabinNotFound);
  });

  it('should page the list, 100 cabins a page, with the count and a link to the next page', async () => {
    // Straight into the database: one query per cabin through HTTP would only slow the test.
    const created = await Promise.all(
      Array.from({ length: API_CABINS_PAGE_SIZE + 1 }, (_, i) =>
        createCabin(env, sampleCabin({ name: `Домик ${i + 1}` })),
      ),
    );
    await seedCabin({ name: 'Скрытый', active: false });
    const ids = created.map((c) => c.id).sort((a, b) => a - b);

    const first = await send('GET', '/api/cabins');
    expect(first.status).toBe(200);
    expect(((await first.json()) as Cabin[]).map((c) => c.id)).toEqual(ids.slice(0, API_CABINS_PAGE_SIZE));
    expect(first.headers.get('x-total-count')).toBe(String(API_CABINS_PAGE_SIZE + 1));
    expect(first.headers.get('link')).toBe('</api/cabins?page=2>; rel="next"');

    const second = await send('GET', '/api/cabins?page=2');
    expect(((await second.json()) as Cabin[]).map((c) => c.id)).toEqual(ids.slice(API_CABINS_PAGE_SIZE));
    expect(second.headers.get('link')).toBeNull();

    const beyond = await send('GET', '/api/cabins?page=3');
    expect(beyond.status).toBe(200);
    expect(await beyond.json()).toEqual([]);
  });

  it.each(['0', '-1', '1.5', 'abc', '', '2e3', '1234567'])('should answer 400 for the page %j', async (page) => {
    await expectError(await send('GET', `/api/cabins?page=${encodeURIComponent(page)}`), 400, MSG.badPage);
  });

  it.each(['abc', '0', '-1', '1.5', '01', '99999999999'])('should answer 400 for the cabin id %s', async (id) => {
    await expectError(await send('GET', `/api/cabins/${id}`), 400, MSG.badId);
  });
});

describe('admin cabin routes', () => {
  it('should create a cabin with the defaults applied and return it', async () => {
    const cookie = await login();
    const body = { name: 'Новый', description: 'Описание', pricePerNight: 3000 };
    const res = await jsonRequest('POST', '/api/cabins', body, { cookie });
    expect(res.status).toBe(201);
    const cabin = (await res.json()) as Cabin;
    expect(cabin).toEqual({
      id: expect.any(Number),
      ...body,
      location: '',
      distanceToSea: '',
      bedrooms: 1,
      bathrooms: 1,
      maxGuests: 2,
      amenities: [],
      images: [],
      featured: false,
      active: true,
      // Pricing beyond the price: weekends as weekdays, every guest in the price.
      weekendPricePerNight: null,
      weekendNights: [5, 6],
      baseGuests: null,
      extraGuestPerNight: 0,
      deposit: 0,
      // Every child priced as an adult, no pets.
      children: { freeUnderAge: 0, sharePercentUntilAge: 0, sharePercent: 0 },
      pets: { allowed: false, fee: 0, per: 'stay' },
    });
    expect(await getCabin(env, cabin.id)).toEqual(cabin);
  });

  it('should create a cabin with every field given', async () => {
    const cookie = await login();
    const input = sampleCabin({ bedrooms: 3, bathrooms: 2, maxGuests: 6, featured: true, active: false });
    const res = await client({ cookie }).api.cabins.$post({ json: input });
    expect(res.status).toBe(201);
    const cabin = await res.json();
    expect(cabin).toEqual({
      id: expect.any(Number),
      weekendPricePerNight: null,
      weekendNights: [5, 6],
      baseGuests: null,
      extraGuestPerNight: 0,
      deposit: 0,
      children: { freeUnderAge: 0, sharePercentUntilAge: 0, sharePercent: 0 },
      pets: { allowed: false, fee: 0, per: 'stay' },
      ...input,
    });
  });

  it('should trim the name and description', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'POST',
      '/api/cabins',
      sampleCabin({ name: '  Домик  ', description: ' Описание ' }),
      { cookie },
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'Домик', description: 'Описание' });
  });

  it('should keep the other fields on a partial update', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ bedrooms: 3, featured: true, amenities: ['Терраса'] });
    const res = await client({ cookie }).api.cabins[':id'].$put({
      param: { id: String(cabin.id) },
      json: { pricePerNight: 7000 },
    });
    expect(res.status).toBe(200);
    const expected = { ...cabin, pricePerNight: 7000 };
    expect(await res.json()).toEqual(expected);
    expect(await getCabin(env, cabin.id)).toEqual(expected);
  });

  it('should deactivate a cabin so visitors stop seeing it', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const res = await jsonRequest('PUT', `/api/cabins/${cabin.id}`, { active: false }, { cookie });
    expect(res.status).toBe(200);
    expect(await (await send('GET', '/api/cabins')).json()).toEqual([]);
    await expectError(await send('GET', `/api/cabins/${cabin.id}`), 404);
  });

  it('should list inactive cabins to the admin', async () => {
    const cookie = await login();
    const a = await seedCabin({ name: 'A' });
    const b = await seedCabin({ name: 'B', active: false });
    const res = await client({ cookie }).api.admin.cabins.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([a, b]);
  });

  it('should delete a cabin', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const keep = await seedCabin({ name: 'Остаётся' });
    const res = await client({ cookie }).api.cabins[':id'].$delete({ param: { id: String(cabin.id) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect(await listCabins(env, { includeInactive: true })).toEqual([keep]);
  });

  it('should answer 404 when updating or deleting a cabin that does not exist', async () => {
    const cookie = await login();
    await seedCabin();
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('PUT', '/api/cabins/999999', { name: 'x' }, { cookie }),
        404,
        MSG.cabinNotFound,
      );
      await expectError(await send('DELETE', '/api/cabins/999999', { cookie }), 404, MSG.cabinNotFound);
    });
  });

  it('should answer 400 for a bad id on update and delete', async () => {
    const cookie = await login();
    await seedCabin();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/cabins/abc', { name: 'x' }, { cookie }), 400, MSG.badId);
      await expectError(await send('DELETE', '/api/cabins/abc', { cookie }), 400, MSG.badId);
    });
  });
});

describe('cabin input the API refuses', () => {
  const long = (n: number) => 'я'.repeat(n);
  const cases: [string, unknown, string | undefined][] = [
    ['an empty name', sampleCabin({ name: '   ' }), MSG.cabinNameRequired],
    ['a missing name', { description: 'x', pricePerNight: 1 }, MSG.cabinNameRequired],
    ['a missing description', { name: 'x', pricePerNight: 1 }, MSG.cabinDescriptionRequired],
    ['an empty description', sampleCabin({ description: ' ' }), MSG.cabinDescriptionRequired],
    ['a missing price', { name: 'x', description: 'y' }, MSG.cabinPriceRequired],
    ['a price as a string', { ...sampleCabin(), pricePerNight: '4500' }, MSG.cabinPriceInvalid],
    ['a fractional price', sampleCabin({ pricePerNight: 10.5 }), MSG.cabinPriceInvalid],
    ['a negative price', sampleCabin({ pricePerNight: -1 }), MSG.cabinPriceInvalid],
    ['zero bedrooms', sampleCabin({ bedrooms: 0 }), MSG.cabinCountMin],
    ['guests as a string', { ...sampleCabin(), maxGuests: '2' }, MSG.cabinCountMin],
    ['a name of 121 characters', sampleCabin({ name: long(121) }), MSG.tooLong],
    ['a description of 5001 characters', sampleCabin({ description: long(5001) }), MSG.tooLong],
    ['amenities as a string', { ...sampleCabin(), amenities: 'Wi-Fi' }, undefined],
    ['an image address with a script scheme', sampleCabin({ images: ['javascript:alert(1)'] }), undefined],
    ['active as a string', { ...sampleCabin(), active: 'yes' }, undefined],
    ['a JSON array', [sampleCabin()], undefined],
    ['JSON null', null, undefined],
  ];

  it.each(cases)('should refuse to create a cabin with %s (400) and store nothing', async (_, body, message) => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await jsonRequest('POST', '/api/cabins', body === null ? 'null' : body, { cookie });
      await expectError(res, 400, message);
    });
  });

  it.each([
    ['an empty name', { name: '' }, MSG.cabinNameRequired],
    ['a name of 121 characters', { name: long(121) }, MSG.tooLong],
    ['a price as a string', { pricePerNight: 'дорого' }, MSG.cabinPriceInvalid],
    ['featured as a number', { featured: 1 }, undefined],
  ] as [string, unknown, string | undefined][])(
    'should refuse to update a cabin with %s (400) and keep it',
    async (_, body, message) => {
      const cookie = await login();
      const cabin = await seedCabin();
      await expectNoChange(async () => {
        await expectError(await jsonRequest('PUT', `/api/cabins/${cabin.id}`, body, { cookie }), 400, message);
      });
    },
  );

  it('should refuse malformed JSON with 400 and the JSON message', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/cabins', '{"name": "x",', { cookie }), 400, MSG.badJson);
      await expectError(await jsonRequest('PUT', `/api/cabins/${cabin.id}`, '{not json', { cookie }), 400, MSG.badJson);
    });
  });

  it('should refuse a body that does not say it is JSON with 415', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await send('POST', '/api/cabins', {
        cookie,
        body: JSON.stringify(sampleCabin()),
        headers: { 'content-type': 'text/plain' },
      });
      await expectError(res, 415);
    });
  });

  it('should refuse a JSON body over 256 KB with 413', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await jsonRequest('POST', '/api/cabins', sampleCabin({ description: 'x'.repeat(300 * 1024) }), {
        cookie,
      });
      await expectError(res, 413);
    });
  });
});
