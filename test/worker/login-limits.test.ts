import { env } from 'cloudflare:test';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEVICE_COOKIE_MS, LOGIN_THROTTLE, PROMO_THROTTLE, QUOTE_THROTTLE } from '../../schema/constants.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  expectError,
  freshIp,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  send,
  sessionCookieFrom,
  validBooking,
  type RequestOptions,
  answerOf,
  client,
} from './helpers.ts';

// Guessing limits as a visitor meets them, on both runtimes: a login's wrong passwords counted
// from every address, an address's (an IPv6 /64) over every login, the owner's own browser let in
// while a stranger's guesses wait, two-factor codes, and promo codes and prices per address.

beforeEach(resetDataWithAdmin);
afterEach(() => {
  vi.useRealTimers();
});

const T0 = new Date('2031-06-02T09:00:10Z').getTime();
const useClock = (ms = T0) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
};
const signIn = (body: Record<string, unknown>, opts: RequestOptions & { host?: string } = {}) =>
  jsonRequest('POST', '/api/admin/login', body, opts);
const owner = { username: ADMIN_USERNAME, password: ADMIN_PASSWORD };
const wrong = (i: number) => ({ username: ADMIN_USERNAME, password: `wrong-password-${i}` });
const retryAfter = (res: Response) => Number(res.headers.get('retry-after'));
const seconds = (ms: number) => ms / 1000;

const DEVICE_COOKIE = 'kaspiy_device';
/** The device cookie's Set-Cookie line of a sign-in's answer, if it set one. */
const deviceLine = (res: Response) => res.headers.getSetCookie().find((l) => l.startsWith(`${DEVICE_COOKIE}=`));
const deviceCookie = (res: Response) => deviceLine(res)?.split(';')[0];

describe('a login’s wrong passwords', () => {
  it('should be counted from every address: 429 past the free ones, each wait twice the last, the right password waiting too', async () => {
    useClock();
    const { login: limit } = LOGIN_THROTTLE;
    for (let i = 1; i <= 20; i++) {
      const res = await signIn(wrong(i), { ip: freshIp() });
      if (i <= limit.free) {
        expect(res.status, `guess ${i}`).toBe(401);
        continue;
      }
      await expectError(res, 429, MSG.loginThrottled);
      expect(retryAfter(res), `guess ${i}`).toBe(seconds(limit.firstWaitMs));
    }
    expect((await signIn(owner, { ip: freshIp() })).status).toBe(429);

    // A guess after the wait is checked; wrong, it doubles the next wait.
    let t = T0;
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await signIn(wrong(100 + i), { ip: freshIp() });
      expect(refused.status).toBe(429);
      waits.push(retryAfter(refused));
      t += retryAfter(refused) * 1000;
      vi.setSystemTime(t);
      expect((await signIn(wrong(200 + i), { ip: freshIp() })).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4].map((k) => k * seconds(limit.firstWaitMs)));
    // The owner, once the wait is over, gets in with the right password.
    const last = await signIn(owner, { ip: freshIp() });
    expect(retryAfter(last)).toBe(8 * seconds(limit.firstWaitMs));
    vi.setSystemTime(t + retryAfter(last) * 1000);
    expect((await signIn(owner, { ip: freshIp() })).status).toBe(200);
  });

  it('should stay counted when another person signs in well from the same address', async () => {
    await seedUser('manager', 'manager-password-1');
    const ip = freshIp();
    for (let i = 1; i < LOGIN_THROTTLE.login.free; i++)
      expect((await signIn(wrong(i), { ip })).status, `guess ${i}`).toBe(401);
    await login({ username: 'manager', password: 'manager-password-1', ip });
    expect((await signIn(wrong(LOGIN_THROTTLE.login.free), { ip })).status).toBe(401);
    await expectError(await signIn(owner, { ip }), 429, MSG.loginThrottled);
    await expectError(await signIn(wrong(99), { ip }), 429, MSG.loginThrottled);
  });

  it('should cost the same writes for a login nobody has, and keep nothing of what was typed as the login', async () => {
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
    const writes = async (body: Record<string, unknown>) => {
      const before = { audit: await count('audit_log'), limits: await count('rate_limits') };
      expect((await signIn(body, { ip: freshIp() })).status).toBe(401);
      return { audit: (await count('audit_log')) - before.audit, limits: (await count('rate_limits')) - before.limits };
    };
    const typedAsLogin = 'Secret-Typed-In-The-Wrong-Field-42';
    expect(await writes({ username: typedAsLogin, password: 'whatever-1' })).toEqual(await writes(wrong(1)));
    expect(await writes({ username: typedAsLogin, password: 'whatever-1' })).toEqual({ audit: 1, limits: 1 });
    const everything = JSON.stringify([
      (await env.DB.prepare('SELECT * FROM audit_log').all()).results,
      (await env.DB.prepare('SELECT * FROM rate_limits').all()).results,
    ]);
    expect(everything).not.toMatch(/secret-typed/i);
    const failed = (
      await env.DB.prepare(
        "SELECT actor, description, outcome FROM audit_log WHERE outcome = 'failed' ORDER BY id",
      ).all()
    ).results;
    expect(failed).toEqual([
      { actor: '—', description: 'Неизвестный логин', outcome: 'failed' },
      { actor: ADMIN_USERNAME, description: 'Неверный пароль', outcome: 'failed' },
      { actor: '—', description: 'Неизвестный логин', outcome: 'failed' },
    ]);
  });
});

describe('an address’s wrong sign-ins', () => {
  it('should count the IPv6 addresses of one /64 together, and not another /64', async () => {
    const [a, b, c, elsewhere] = [
      '2001:db8:5:7::1',
      '2001:db8:5:7:ffff:1:2:3',
      '2001:db8:5:7:abcd::9',
      '2001:db8:5:8::1',
    ];
    for (let i = 0; i < LOGIN_THROTTLE.address.free; i++) {
      expect(
        (await signIn({ username: `nobody-${i}`, password: 'guess-1234' }, { ip: i % 2 ? a : b })).status,
        `guess ${i + 1}`,
      ).toBe(401);
    }
    await expectError(await signIn(owner, { ip: c }), 429, MSG.loginThrottled);
    expect((await signIn(owner, { ip: elsewhere })).status).toBe(200);
  });

  it('should count an IPv4 address written as IPv6 as that IPv4 address', async () => {
    for (let i = 0; i < LOGIN_THROTTLE.address.free; i++) {
      expect(
        (
          await signIn(
            { username: `nobody-${i}`, password: 'guess-1234' },
            { ip: i % 2 ? '203.0.113.7' : '::ffff:203.0.113.7' },
          )
        ).status,
      ).toBe(401);
    }
    expect((await signIn(owner, { ip: '203.0.113.7' })).status).toBe(429);
  });
});

describe('the device cookie', () => {
  it('should let the owner in from their own browser while a stranger’s guesses hold the login, and the stranger not', async () => {
    useClock();
    const first = await signIn(owner, { ip: freshIp() });
    expect(first.status).toBe(200);
    const line = deviceLine(first)!;
    const attrs = line
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(
      expect.arrayContaining([
        'httponly',
        'samesite=strict',
        'path=/api/admin/login',
        `max-age=${DEVICE_COOKIE_MS / 1000}`,
      ]),
    );
    expect(attrs).not.toContain('secure');
    const phone = deviceCookie(first)!;
    const token = phone.split('=')[1]!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await env.DB.prepare('SELECT * FROM known_devices').all()).results)).not.toContain(token);

    // A stranger guesses from everywhere until the login waits.
    for (let i = 1; i <= LOGIN_THROTTLE.login.free + 3; i++) await signIn(wrong(i), { ip: freshIp() });
    expect((await signIn(wrong(50), { ip: freshIp() })).status).toBe(429);
    expect((await signIn(owner, { ip: freshIp() })).status).toBe(429);

    // The owner's phone is let in, and its cookie is swapped for a new one.
    const back = await signIn(owner, { ip: freshIp(), cookie: phone });
    expect(back.status).toBe(200);
    expect(sessionCookieFrom(back)).toBeDefined();
    const renewed = deviceCookie(back)!;
    expect(renewed).not.toBe(phone);
    // The stranger still waits; a copy of the old cookie names no device any more.
    expect((await signIn(wrong(51), { ip: freshIp() })).status).toBe(429);
    expect((await signIn(owner, { ip: freshIp(), cookie: phone })).status).toBe(429);

    // The phone's own wrong guesses are held by a count of its own.
    for (let i = 1; i <= LOGIN_THROTTLE.device.free; i++)
      expect((await signIn(wrong(60 + i), { ip: freshIp(), cookie: renewed })).status).toBe(401);
    await expectError(await signIn(owner, { ip: freshIp(), cookie: renewed }), 429, MSG.loginThrottled);
    vi.setSystemTime(T0 + LOGIN_THROTTLE.device.firstWaitMs);
    expect((await signIn(owner, { ip: freshIp(), cookie: renewed })).status).toBe(200);
  });

  it('should not open another person’s login, and be Secure over https', async () => {
    await seedUser('manager', 'manager-password-1');
    const managerBrowser = deviceCookie(
      await signIn({ username: 'manager', password: 'manager-password-1' }, { ip: freshIp() }),
    )!;
    for (let i = 1; i <= LOGIN_THROTTLE.login.free; i++) await signIn(wrong(i), { ip: freshIp() });
    expect((await signIn(owner, { ip: freshIp(), cookie: managerBrowser })).status).toBe(429);

    const overHttps = await signIn(
      { username: 'manager', password: 'manager-password-1' },
      { ip: freshIp(), host: 'https://kaspiy.example' },
    );
    expect(overHttps.status).toBe(200);
    expect(deviceLine(overHttps)!.toLowerCase()).toMatch(/;\s*secure/);
  });

  it('should still be held by the limit of the address it signs in from', async () => {
    // A device cookie lifts only the login's count: the address's counts the phone's sign-ins too.
    const ip = freshIp();
    const phone = deviceCookie(await signIn(owner, { ip }))!;
    for (let i = 0; i < LOGIN_THROTTLE.address.free; i++)
      await signIn({ username: `nobody-${i}`, password: 'guess-1234' }, { ip });
    await expectError(await signIn(owner, { ip, cookie: phone }), 429, MSG.loginThrottled);
  });
});

/** The code an authenticator app shows for `secret` at `ms`. */
const codeAt = (secret: string, ms = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

describe('two-factor codes', () => {
  it('should be limited per person from every address, each wait growing, and let the right code in after it', async () => {
    useClock();
    const cookie = await login();
    const setup = await answerOf(await client({ cookie }).api.admin['2fa'].setup.$post(), 200);
    expect(
      (
        await jsonRequest(
          'POST',
          '/api/admin/2fa/enable',
          { code: codeAt(setup.secret), password: ADMIN_PASSWORD },
          { cookie },
        )
      ).status,
    ).toBe(200);
    let t = T0 + 30_000;
    vi.setSystemTime(t);
    const guess = (n: number) => signIn({ ...owner, code: String(100000 + n) }, { ip: freshIp() });
    for (let i = 1; i <= LOGIN_THROTTLE.code.free; i++) expect((await guess(i)).status, `code ${i}`).toBe(401);
    const refused = await signIn({ ...owner, code: codeAt(setup.secret) }, { ip: freshIp() });
    await expectError(refused, 429, MSG.codeThrottled);
    expect(retryAfter(refused)).toBe(seconds(LOGIN_THROTTLE.code.firstWaitMs));
    t += retryAfter(refused) * 1000;
    vi.setSystemTime(t);
    expect((await guess(50)).status).toBe(401);
    const longer = await guess(51);
    expect(longer.status).toBe(429);
    expect(retryAfter(longer)).toBe(2 * seconds(LOGIN_THROTTLE.code.firstWaitMs));
    t += retryAfter(longer) * 1000;
    vi.setSystemTime(t);
    expect((await signIn({ ...owner, code: codeAt(setup.secret) }, { ip: freshIp() })).status).toBe(200);
  });
});

const day = (n: number) => addDays(todayInMoscow(), n);
const quote = (q: Record<string, string | number>, ip: string) =>
  send('GET', `/api/quote?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, { ip });

describe('promo codes and prices per address', () => {
  it('should answer 429 past the free wrong codes of one address, in quotes and bookings alike, and still price a stay without one', async () => {
    const cabin = await seedCabin({ pricePerNight: 5000 });
    const stay = { cabinId: cabin.id, checkIn: day(20), checkOut: day(23), guests: 2 };
    const ip = '2001:db8:77:1::1';
    const half = PROMO_THROTTLE.free / 2;
    for (let i = 0; i < half; i++)
      await expectError(await quote({ ...stay, promo: `GUESS${i}` }, ip), 400, MSG.promoNotFound);
    // Another address of the same /64, by booking.
    for (let i = 0; i < half; i++) {
      const booking = validBooking(cabin.id, { checkIn: stay.checkIn, checkOut: stay.checkOut, promo: `TRY${i}` });
      await expectError(
        await jsonRequest('POST', '/api/bookings', booking, { ip: `2001:db8:77:1::${i + 2}` }),
        400,
        MSG.promoNotFound,
      );
    }
    const refused = await quote({ ...stay, promo: 'GUESSX' }, ip);
    await expectError(refused, 429, MSG.promoThrottled);
    expect(retryAfter(refused)).toBe(seconds(PROMO_THROTTLE.firstWaitMs));
    await expectError(
      await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { promo: 'TRYX' }), { ip }),
      429,
      MSG.promoThrottled,
    );
    expect((await quote(stay, ip)).status).toBe(200);
    expect((await jsonRequest('POST', '/api/bookings', validBooking(cabin.id), { ip })).status).toBe(201);
    await expectError(await quote({ ...stay, promo: 'GUESSY' }, freshIp()), 400, MSG.promoNotFound);
  });

  it('should not count a code that applies, nor a refusal that is not about the code', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000, maxGuests: 2 });
    expect(
      (await jsonRequest('PUT', '/api/admin/promo-codes', { codes: [{ code: 'LETO', percent: 10 }] }, { cookie }))
        .status,
    ).toBe(200);
    const stay = { cabinId: cabin.id, checkIn: day(20), checkOut: day(23), guests: 2 };
    const ip = freshIp();
    for (let i = 0; i <= PROMO_THROTTLE.free; i++) {
      expect((await quote({ ...stay, promo: 'leto' }, ip)).status).toBe(200);
      await expectError(await quote({ ...stay, guests: 5, promo: 'GUESS' }, ip), 400, MSG.bookingTooManyGuests);
    }
    // None of those used the address's free wrong codes up.
    for (let i = 0; i < PROMO_THROTTLE.free; i++)
      await expectError(await quote({ ...stay, promo: `GUESS${i}` }, ip), 400, MSG.promoNotFound);
    await expectError(await quote({ ...stay, promo: 'LETO' }, ip), 429, MSG.promoThrottled);
  });

  it(`should answer more than ${QUOTE_THROTTLE.max} quotes a minute from one address with 429, and a quote from elsewhere`, async () => {
    useClock();
    const cabin = await seedCabin();
    const stay = { cabinId: cabin.id, checkIn: day(20), checkOut: day(23), guests: 2 };
    const ip = freshIp();
    const statuses = (await Promise.all(Array.from({ length: QUOTE_THROTTLE.max }, () => quote(stay, ip)))).map(
      (r) => r.status,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await quote(stay, ip);
    await expectError(refused, 429, MSG.quoteThrottled);
    expect(retryAfter(refused)).toBeGreaterThan(0);
    expect((await quote(stay, freshIp())).status).toBe(200);
    vi.setSystemTime(T0 + QUOTE_THROTTLE.windowMs + 1);
    expect((await quote(stay, ip)).status).toBe(200);
  });
});
