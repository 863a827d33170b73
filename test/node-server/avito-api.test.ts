import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookingAt, readLog, readPushed, startAvitoStandIn, type AvitoStandIn } from '../../stand-ins/avito-api.ts';
import {
  AvitoError,
  avitoApiUrl,
  getToken,
  memoryTokenStore,
  pullBookings,
  pushBusy,
  pushPrices,
  type AvitoAccount,
  type StoredToken,
} from '../../worker/channels/avito-api.ts';

// The Avito client (worker/channels/avito-api.ts) against the stand-in over real HTTP: tokens
// kept and renewed, every failure an AvitoError with its Russian reason and whether to retry,
// and the stand-in itself refusing what Avito would refuse. Each test has an account of its own.

let avito: AvitoStandIn;
/** Every error a call gave, and every secret and token handed out: none may appear in any error. */
const errors: AvitoError[] = [];
const secrets: string[] = [];
const stores: ReturnType<typeof memoryTokenStore>[] = [];

beforeAll(async () => {
  avito = await startAvitoStandIn();
});
afterAll(async () => {
  await avito?.close();
});

let accounts = 0;
/** A new account on the stand-in with two listings of its own. */
function account(over: Partial<AvitoAccount> = {}) {
  accounts += 1;
  const n = accounts;
  const clientId = `client-${n}`;
  const clientSecret = `sec-${randomBytes(12).toString('hex')}`;
  secrets.push(clientSecret);
  const userId = 70_000 + n;
  const items = [n * 1000 + 1, n * 1000 + 2];
  avito.addClient({ clientId, clientSecret, userId, items });
  const acc: AvitoAccount = { clientId, clientSecret, userId, apiUrl: avito.apiUrl, ...over };
  const store = memoryTokenStore();
  stores.push(store);
  return { acc, store, item: items[0]!, other: items[1]! };
}

async function failure(p: Promise<unknown>): Promise<AvitoError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AvitoError);
    errors.push(err as AvitoError);
    return err as AvitoError;
  }
  throw new Error('the call succeeded');
}

const log = (clientId: string) =>
  avito.requests
    .filter((r) => r.clientId === clientId)
    .map((r) => `${r.method} ${r.path.replace(/\/v1\/accounts\/\d+\/items\/\d+/, '')} ${r.status}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Avito API client against the stand-in', () => {
  it('should take the API address from AVITO_API_URL without trailing slashes, else Avito itself', () => {
    expect(avitoApiUrl({ AVITO_API_URL: 'http://127.0.0.1:9999//' })).toBe('http://127.0.0.1:9999');
    expect(avitoApiUrl({})).toBe('https://api.avito.ru');
  });

  it('should get a token once and reuse it across calls', async () => {
    const { acc, store, item } = account();
    const before = Date.now();
    await pushBusy(acc, store, item, [{ start: '2026-07-01', end: '2026-07-05' }]);
    await pushPrices(acc, store, item, [{ start: '2026-07-01', end: '2026-08-31', pricePerNight: 4500, minNights: 2 }]);
    await pullBookings(acc, store, item, '2026-07-01', '2026-08-31');
    expect(avito.tokensIssuedTo(acc.clientId)).toBe(1);
    expect(store.current?.expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(log(acc.clientId)).toEqual([
      'POST /token 200',
      'POST /core/bookings 200',
      'POST /realty/prices 200',
      'GET /realty/bookings 200',
    ]);
  });

  it('should get a new token when the stored one has less than a minute left', async () => {
    const { acc, item } = account();
    const store = memoryTokenStore({ token: 'old-token-about-to-expire', expiresAt: Date.now() + 30_000 });
    stores.push(store);
    await pushBusy(acc, store, item, []);
    expect(avito.tokensIssuedTo(acc.clientId)).toBe(1);
    expect(store.current?.token).not.toBe('old-token-about-to-expire');
    expect(log(acc.clientId)).toEqual(['POST /token 200', 'POST /core/bookings 200']);
  });

  it('should renew a token that expired by its own expires_in', async () => {
    const { acc, store, item } = account();
    // 61 s: fresh for one second by the client's minute of margin.
    avito.setExpiresIn(61, acc.clientId);
    await pushBusy(acc, store, item, []);
    await pushBusy(acc, store, item, []);
    expect(avito.tokensIssuedTo(acc.clientId)).toBe(1);
    await sleep(1100);
    await pushBusy(acc, store, item, []);
    expect(avito.tokensIssuedTo(acc.clientId)).toBe(2);
  });

  it('should get one new token and retry once when Avito says the stored token expired', async () => {
    const { acc, item } = account();
    avito.setExpiresIn(1, acc.clientId);
    const stale = await getToken(acc);
    await sleep(1100);
    // The store believes it has an hour left (another clock, a token Avito dropped early).
    const store = memoryTokenStore({ token: stale.token, expiresAt: Date.now() + 3600_000 });
    stores.push(store);
    await pushBusy(acc, store, item, [{ start: '2026-09-01', end: '2026-09-03' }]);
    expect(log(acc.clientId)).toEqual([
      'POST /token 200',
      'POST /core/bookings 401',
      'POST /token 200',
      'POST /core/bookings 200',
    ]);
    expect(store.current?.token).not.toBe(stale.token);
    expect(avito.pushedBusy(item).count).toBe(1);
  });

  it('should tell the owner the key was revoked after one new token is refused, and not retry further', async () => {
    const { acc, store, item } = account();
    await pushBusy(acc, store, item, []);
    avito.revoke(acc.clientId);
    const err = await failure(pushBusy(acc, store, item, []));
    expect(err.kind).toBe('revoked');
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(401);
    expect(err.reason).toContain('ключ отозван — создайте новый в личном кабинете Авито');
    expect(log(acc.clientId)).toEqual([
      'POST /token 200',
      'POST /core/bookings 200',
      'POST /core/bookings 401',
      'POST /token 401',
    ]);
  });

  it('should tell the owner the keys were not accepted when they are wrong', async () => {
    const { acc, store, item } = account();
    const wrong = { ...acc, clientSecret: `${acc.clientSecret}-typo` };
    secrets.push(wrong.clientSecret);
    for (const err of [await failure(getToken(wrong)), await failure(pushBusy(wrong, store, item, []))]) {
      expect(err.kind).toBe('keys');
      expect(err.status).toBe(401);
      expect(err.retryable).toBe(false);
      expect(err.reason).toBe(
        'Авито не приняло ключи: проверьте Client ID и Client Secret в личном кабинете Авито (раздел «Для профессионалов» → API)',
      );
    }
    const unknown = await failure(getToken({ ...acc, clientId: 'nobody-knows-me' }));
    expect(unknown.status).toBe(400);
    expect(unknown.reason).toContain('не приняло ключи');
    expect(store.current).toBeNull();
  });

  it("should name the listing when it is another account's (403) or does not exist (404)", async () => {
    const mine = account();
    const theirs = account();
    const foreign = await failure(pushBusy(mine.acc, mine.store, theirs.item, []));
    expect(foreign.status).toBe(403);
    expect(foreign.retryable).toBe(false);
    expect(foreign.reason).toMatch(
      new RegExp(
        `^Авито не нашло объявление ${theirs.item} в этом аккаунте: проверьте номер объявления \\(access denied`,
      ),
    );
    const missing = await failure(pullBookings(mine.acc, mine.store, 424242, '2026-07-01', '2026-07-31'));
    expect(missing.status).toBe(404);
    expect(missing.kind).toBe('item');
    expect(missing.reason).toBe(
      'Авито не нашло объявление 424242 в этом аккаунте: проверьте номер объявления (item not found)',
    );
    expect(avito.pushedBusy(theirs.item).count).toBe(0);
  });

  it('should push busy nights and prices that land in the stand-in exactly as sent', async () => {
    const { acc, store, item } = account();
    await pushBusy(acc, store, item, [
      { start: '2026-07-01', end: '2026-07-05', comment: 'Бронь с сайта' },
      { start: '2026-07-10', end: '2026-07-11' },
    ]);
    expect(avito.pushedBusy(item).last).toEqual([
      { date_start: '2026-07-01', date_end: '2026-07-05', type: 'manual', comment: 'Бронь с сайта' },
      { date_start: '2026-07-10', date_end: '2026-07-11', type: 'manual' },
    ]);
    expect(avito.pushedBusy(item).history[0]?.source).toBe('kaspiy');
    // The whole list replaces the last one.
    await pushBusy(acc, store, item, [{ start: '2026-08-01', end: '2026-08-02' }]);
    const busy = avito.pushedBusy(item);
    expect(busy.count).toBe(2);
    expect(busy.last).toEqual([{ date_start: '2026-08-01', date_end: '2026-08-02', type: 'manual' }]);
    expect(Date.parse(busy.history[1]!.at)).toBeGreaterThanOrEqual(Date.parse(busy.history[0]!.at));

    await pushPrices(acc, store, item, [
      { start: '2026-06-01', end: '2026-06-30', pricePerNight: 3500, minNights: 1 },
      { start: '2026-07-01', end: '2026-08-31', pricePerNight: 6000, minNights: 3, extraGuestFee: 500 },
    ]);
    expect(avito.pushedPrices(item).last).toEqual([
      { date_from: '2026-06-01', date_to: '2026-06-30', night_price: 3500, minimal_duration: 1 },
      { date_from: '2026-07-01', date_to: '2026-08-31', night_price: 6000, minimal_duration: 3, extra_guest_fee: 500 },
    ]);
  });

  it('should refuse dates or prices that are not right before sending anything', async () => {
    const { acc, store, item } = account();
    const dates = await failure(pushBusy(acc, store, item, [{ start: '2026-07-05', end: '2026-07-05' }]));
    expect(dates.kind).toBe('input');
    expect(dates.retryable).toBe(false);
    const price = await failure(
      pushPrices(acc, store, item, [{ start: '2026-07-01', end: '2026-07-31', pricePerNight: 4999.5, minNights: 1 }]),
    );
    expect(price.kind).toBe('input');
    const itemId = await failure(pushBusy(acc, store, -1, []));
    expect(itemId.reason).toContain('проверьте номер объявления');
    expect(log(acc.clientId)).toEqual([]);
  });

  it('should pull active and pending bookings in the window, not canceled ones, keeping a status it does not know', async () => {
    const { acc, store, item } = account();
    const active = avito.addBooking(item, {
      check_in: '2026-07-03',
      check_out: '2026-07-06',
      guest_count: 3,
      base_price: 15000,
      contact: { name: 'Анна', phone: '+79990001122' },
    });
    const pending = avito.addBooking(item, { check_in: '2026-07-10', check_out: '2026-07-12', status: 'pending' });
    const canceled = avito.addBooking(item, { check_in: '2026-07-15', check_out: '2026-07-17' });
    avito.cancelBooking(item, canceled.avito_booking_id);
    avito.addBooking(item, { check_in: '2026-09-01', check_out: '2026-09-04' });
    // Ends on the window's first day: the departure day is not a night in it.
    avito.addBooking(item, { check_in: '2026-06-25', check_out: '2026-07-01' });
    const odd = avito.addBooking(item, {
      check_in: '2026-07-20',
      check_out: '2026-07-21',
      status: 'on_moderation',
      payment_link: 'https://example',
    });

    const got = await pullBookings(acc, store, item, '2026-07-01', '2026-07-31');
    expect(got).toEqual([
      {
        id: active.avito_booking_id,
        status: 'active',
        checkIn: '2026-07-03',
        checkOut: '2026-07-06',
        guests: 3,
        nights: 3,
        price: 15000,
        name: 'Анна',
        phone: '+79990001122',
      },
      {
        id: pending.avito_booking_id,
        status: 'pending',
        checkIn: '2026-07-10',
        checkOut: '2026-07-12',
        guests: 2,
        nights: 2,
        price: 5000,
      },
      {
        id: odd.avito_booking_id,
        status: 'on_moderation',
        checkIn: '2026-07-20',
        checkOut: '2026-07-21',
        guests: 2,
        nights: 1,
        price: 5000,
      },
    ]);
    expect(avito.requests.at(-1)?.query).toBe('?date_start=2026-07-01&date_end=2026-07-31&with_unpaid=true');
  });

  it('should make 429 retryable with Retry-After in ms, and recover after the set number of failures', async () => {
    const { acc, store, item } = account();
    await pushBusy(acc, store, item, []);
    avito.fail('rate', { times: 1, clientId: acc.clientId });
    const err = await failure(pushBusy(acc, store, item, []));
    expect(err).toMatchObject({
      kind: 'rate',
      status: 429,
      retryable: true,
      retryAfterMs: 1000,
      reason: 'Авито просит реже обращаться к нему: повторим позже',
    });
    await pushBusy(acc, store, item, []);
    expect(avito.pushedBusy(item).count).toBe(2);
  });

  it('should make 503 retryable and name the status, also when the token request meets it', async () => {
    const { acc, store, item } = account();
    avito.fail('down', { times: 1, clientId: acc.clientId });
    const atToken = await failure(pushBusy(acc, store, item, []));
    expect(atToken).toMatchObject({
      kind: 'down',
      status: 503,
      retryable: true,
      reason: 'Авито не отвечает (ошибка 503): повторим позже',
    });
    expect(store.current).toBeNull();
    await pushBusy(acc, store, item, []);
    avito.fail('down', { times: 1, clientId: acc.clientId });
    const atItem = await failure(pullBookings(acc, store, item, '2026-07-01', '2026-07-31'));
    expect(atItem.status).toBe(503);
    expect(atItem.retryable).toBe(true);
  });

  it('should make a garbage answer retryable', async () => {
    const { acc, store, item } = account();
    await pushBusy(acc, store, item, []);
    avito.fail('garbage', { times: 1, clientId: acc.clientId });
    const err = await failure(pullBookings(acc, store, item, '2026-07-01', '2026-07-31'));
    expect(err).toMatchObject({
      kind: 'garbage',
      status: 200,
      retryable: true,
      reason: 'Авито ответило непонятно: повторим позже',
    });
  });

  it('should give up on a slow answer at the timeout passed and make it retryable', async () => {
    const { acc, store, item } = account();
    await pushBusy(acc, store, item, []);
    avito.fail('slow', { delayMs: 3000, times: 1, clientId: acc.clientId });
    const started = Date.now();
    const err = await failure(pushBusy(acc, store, item, [], { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(true);
    expect(err.reason).toBe('Авито не отвечает (нет ответа за 0,3 с): повторим позже');
  });

  it('should make an unreachable Avito retryable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { acc, store, item } = account();
    const err = await failure(pushBusy({ ...acc, apiUrl: `http://127.0.0.1:${port}` }, store, item, []));
    expect(err).toMatchObject({
      kind: 'network',
      retryable: true,
      reason: 'Авито не отвечает (нет связи с сервером): повторим позже',
    });
  });

  it('should retry an item call only once even when every new token is refused by the item call', async () => {
    // An Avito that gives tokens but answers 401 to every item call, echoing what it was sent.
    const calls: string[] = [];
    const echo: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        calls.push(`${req.method} ${req.url?.split('?')[0]}`);
        res.setHeader('content-type', 'application/json');
        if (req.url === '/token') {
          res.end(
            JSON.stringify({
              access_token: `tok-${randomBytes(8).toString('hex')}`,
              expires_in: 3600,
              token_type: 'Bearer',
            }),
          );
        } else {
          res.writeHead(401).end(JSON.stringify({ error: { code: 401, message: `no: ${req.headers.authorization}` } }));
        }
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
    try {
      const acc: AvitoAccount = {
        clientId: 'echo',
        clientSecret: `echo-secret-${randomBytes(6).toString('hex')}`,
        userId: 5,
        apiUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}`,
      };
      secrets.push(acc.clientSecret);
      const store = memoryTokenStore();
      stores.push(store);
      const err = await failure(pushBusy(acc, store, 77, []));
      expect(err).toMatchObject({ kind: 'revoked', status: 401, retryable: false });
      expect(err.reason).toContain('ключ отозван');
      expect(calls).toEqual([
        'POST /token',
        'POST /core/v1/accounts/5/items/77/bookings',
        'POST /token',
        'POST /core/v1/accounts/5/items/77/bookings',
      ]);
      // Avito echoed the Bearer token: the message says *** instead.
      expect(err.message).toContain('no: Bearer ***');
    } finally {
      echo.closeAllConnections();
      await new Promise<void>((r) => echo.close(() => r()));
    }
  });
});

describe('Avito stand-in', () => {
  const item = (userId: number, itemId: number) =>
    `${avito.apiUrl}/core/v1/accounts/${userId}/items/${itemId}/bookings`;

  it('should refuse an item call without a Bearer token, or with one it did not issue', async () => {
    const { acc, item: itemId } = account();
    const body = JSON.stringify({ bookings: [], source: 'kaspiy' });
    const none = await fetch(item(acc.userId, itemId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: 401, message: 'authorization required: Bearer token' } });
    const basic = await fetch(item(acc.userId, itemId), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${btoa(`${acc.clientId}:${acc.clientSecret}`)}`,
      },
      body,
    });
    expect(basic.status).toBe(401);
    const made = await fetch(item(acc.userId, itemId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer made-up' },
      body,
    });
    expect(made.status).toBe(401);
    expect(avito.pushedBusy(itemId).count).toBe(0);
  });

  it('should refuse a token request that is not form-encoded client credentials', async () => {
    const { acc } = account();
    const asJson = await fetch(`${avito.apiUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: acc.clientId,
        client_secret: acc.clientSecret,
      }),
    });
    expect(asJson.status).toBe(400);
    const grant = await fetch(`${avito.apiUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: acc.clientId, client_secret: acc.clientSecret }),
    });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    expect(avito.tokensIssuedTo(acc.clientId)).toBe(0);
  });

  it('should refuse a malformed body with 400 and keep nothing of it', async () => {
    const { acc, store, item: itemId } = account();
    const { token } = (await getToken(acc)) satisfies StoredToken;
    await store.set({ token, expiresAt: Date.now() + 3600_000 });
    const send = (body: unknown, path = item(acc.userId, itemId)) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const bad = [
      { bookings: [{ date_start: '2026-07-05', date_end: '2026-07-01', type: 'manual' }], source: 'kaspiy' },
      { bookings: [{ date_start: '2026-13-01', date_end: '2026-13-05', type: 'manual' }], source: 'kaspiy' },
      { bookings: [{ date_start: '2026-07-01', date_end: '2026-07-05' }], source: 'kaspiy' },
      { bookings: [{ date_start: '2026-07-01', date_end: '2026-07-05', type: 'manual' }] },
      { bookings: [{ start: '2026-07-01', end: '2026-07-05', type: 'manual' }], source: 'kaspiy' },
    ];
    for (const body of bad) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 400, message: expect.any(String) } });
    }
    const prices = await send(
      { prices: [{ date_from: '2026-07-01', date_to: '2026-07-31', night_price: 4999.5, minimal_duration: 1 }] },
      item(acc.userId, itemId)
        .replace('/core/', '/realty/')
        .replace(/bookings$/, 'prices'),
    );
    expect(prices.status).toBe(400);
    const text = await fetch(item(acc.userId, itemId), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` },
      body: 'hello',
    });
    expect(text.status).toBe(400);
    expect(avito.pushedBusy(itemId).count).toBe(0);
    expect(avito.pushedPrices(itemId).count).toBe(0);
    // Another account's user id in the path, with this account's token.
    const otherUser = await send({ bookings: [], source: 'kaspiy' }, item(acc.userId + 1, itemId));
    expect(otherUser.status).toBe(403);
  });

  it('should offer its controls over HTTP for tests that cannot call it', async () => {
    const c = avito.controlUrl;
    const post = (path: string, body: unknown = {}) =>
      fetch(`${c}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const acc: AvitoAccount = {
      clientId: 'http-client',
      clientSecret: 'http-secret-0001',
      userId: 99_001,
      apiUrl: avito.apiUrl,
    };
    secrets.push(acc.clientSecret);
    expect(
      (
        await post('/clients', {
          clientId: acc.clientId,
          clientSecret: acc.clientSecret,
          userId: acc.userId,
          items: [990_011],
        })
      ).status,
    ).toBe(201);
    const added = await addBookingAt(c, 990_011, {
      check_in: '2026-07-01',
      check_out: '2026-07-04',
      status: 'pending',
    });
    const store = memoryTokenStore();
    expect(await pullBookings(acc, store, 990_011, '2026-07-01', '2026-07-31')).toHaveLength(1);
    const del = await fetch(`${c}/items/990011/bookings/${added.avito_booking_id}`, { method: 'DELETE' });
    expect(await del.json()).toMatchObject({ status: 'canceled' });
    expect(await pullBookings(acc, store, 990_011, '2026-07-01', '2026-07-31')).toEqual([]);

    await pushBusy(acc, store, 990_011, [{ start: '2026-07-01', end: '2026-07-02' }]);
    const pushed = await readPushed(c, 990_011);
    expect(pushed.busy).toMatchObject({
      count: 1,
      last: [{ date_start: '2026-07-01', date_end: '2026-07-02', type: 'manual' }],
    });
    expect(pushed.prices.count).toBe(0);

    expect((await post('/fail', { mode: 'down', times: 1, clientId: acc.clientId })).status).toBe(200);
    expect((await failure(pushBusy(acc, store, 990_011, []))).status).toBe(503);
    expect((await post('/clients/http-client/revoke')).status).toBe(200);
    expect((await failure(pushBusy(acc, store, 990_011, []))).kind).toBe('revoked');

    const logged = await readLog(c, 'http-client');
    expect(logged.tokensIssued).toBe(1);
    expect(logged.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 503, 401, 401]);
    expect((await post('/reset', { clientId: acc.clientId })).status).toBe(200);
    expect((await readLog(c, 'http-client')).requests).toEqual([]);
    expect((await post('/fail', { mode: 'sideways' })).status).toBe(400);
  });
});

// Last, over every error the tests above collected.
describe('Avito errors', () => {
  it('should never put the client secret or a token in any error', () => {
    expect(errors.length).toBeGreaterThan(15);
    const tokens = stores.map((s) => s.current?.token).filter((t): t is string => !!t);
    expect(tokens.length).toBeGreaterThan(5);
    for (const err of errors) {
      const text = `${err.message}\n${err.reason}\n${err.stack}\n${JSON.stringify(err)}`;
      for (const secret of [...secrets, ...tokens]) expect(text).not.toContain(secret);
    }
  });
});
