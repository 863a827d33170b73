import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { MSG } from '../../schema/messages.ts';
import { CONTACT_FIELDS, type Settings } from '../../schema/settings.ts';
import { getPublicSettings, getSettings, readStoredSettings, updateSettings } from '../../worker/queries/settings.ts';
import {
  client,
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedUser,
  send,
} from './helpers.ts';

beforeEach(resetDataWithAdmin);

const YANDEX_SRC = 'https://yandex.ru/map-widget/v1/?um=constructor%3Aabc123&source=constructor';
const GOOGLE_SRC = 'https://www.google.com/maps/embed?pb=!1m18!1m12';
const yandexCode = `<script type="text/javascript" charset="utf-8" async src="https://api-maps.yandex.ru/services/constructor/1.0/js/?um=x"></script><iframe src="${YANDEX_SRC.replace(/&/g, '&amp;')}" width="100%" height="400" frameborder="0" onload="alert(1)"></iframe>`;

const getJson = async <T>(path: string, cookie?: string) => {
  const res = await send('GET', path, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

describe('settings queries', () => {
  it('should read the built-in defaults when nothing is stored', async () => {
    const s = await getSettings(env);
    expect(s).toMatchObject(DEFAULT_SETTINGS);
    expect(s.contactInfo).toEqual(Object.fromEntries(CONTACT_FIELDS.map((f) => [f, DEFAULT_SETTINGS[f]])));
  });

  it('should merge a partial update and keep the other stored fields', async () => {
    await updateSettings(env, { heroTitle: 'Первый', checkInTime: '15:00' });
    const after = await updateSettings(env, { heroSubtitle: 'Второй' });
    expect(after).toMatchObject({
      heroTitle: 'Первый',
      heroSubtitle: 'Второй',
      checkInTime: '15:00',
      checkOutTime: '12:00',
    });
    expect(await readStoredSettings(env)).toEqual({
      heroTitle: 'Первый',
      heroSubtitle: 'Второй',
      checkInTime: '15:00',
      contactInfo: {},
    });
  });

  it('should read the top-level value over the contactInfo one, and contactInfo over the default', async () => {
    await updateSettings(env, { contactInfo: { phone: '+7 111', email: 'nested@example.ru' } });
    let s = await getSettings(env);
    expect(s.phone).toBe('+7 111');
    expect(s.email).toBe('nested@example.ru');
    await updateSettings(env, { phone: '+7 222' });
    await updateSettings(env, { contactInfo: { phone: '+7 333' } });
    s = await getSettings(env);
    expect(s.phone).toBe('+7 222');
    expect(s.contactInfo.phone).toBe('+7 222');
    expect(s.contactInfo.email).toBe('nested@example.ru');
    expect(s.address).toBe(DEFAULT_SETTINGS.address);
  });

  it('should give the public only a clean frame of a Yandex map, and the admin the code as typed', async () => {
    await updateSettings(env, { mapEmbedCode: yandexCode });
    expect((await getSettings(env)).mapEmbedCode).toBe(yandexCode);
    const pub = await getPublicSettings(env);
    expect(pub.mapSrc).toBe(YANDEX_SRC);
    expect(pub.mapEmbedCode).toBe(`<iframe src="${YANDEX_SRC}"></iframe>`);
    expect(pub.contactInfo.mapEmbedCode).toBe(pub.mapEmbedCode);
  });
});

describe('settings routes', () => {
  it('should give visitors the defaults before anything is saved', async () => {
    const s = await getJson<Settings & { mapSrc: string | null }>('/api/settings');
    expect(s).toMatchObject({ ...DEFAULT_SETTINGS, mapEmbedCode: '', mapSrc: null });
  });

  it('should save a partial update and keep everything else', async () => {
    const cookie = await login();
    await updateSettings(env, { heroTitle: 'Старый заголовок', galleryImages: ['/media/a.jpg'] });
    const res = await client({ cookie }).api.settings.$put({ json: { heroSubtitle: 'Новый подзаголовок' } });
    expect(res.status).toBe(200);
    const saved = await res.json();
    expect(saved).toMatchObject({
      heroTitle: 'Старый заголовок',
      heroSubtitle: 'Новый подзаголовок',
      galleryImages: ['/media/a.jpg'],
    });
    const pub = await getJson<Settings>('/api/settings');
    expect(pub).toMatchObject({
      heroTitle: 'Старый заголовок',
      heroSubtitle: 'Новый подзаголовок',
      galleryImages: ['/media/a.jpg'],
    });
  });

  it('should save the contacts tab (contactInfo plus top-level fields) with top-level winning on read', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'PUT',
      '/api/settings',
      {
        contactInfo: { phone: '+7 900 000-00-00', email: 'nested@example.ru', siteName: 'Вложенное' },
        phone: '+7 999 999-99-99',
        siteName: 'Каспий-Дом',
        footerPhone: '+7 800',
      },
      { cookie },
    );
    expect(res.status).toBe(200);
    const pub = await getJson<Settings>('/api/settings');
    expect(pub).toMatchObject({
      phone: '+7 999 999-99-99',
      siteName: 'Каспий-Дом',
      email: 'nested@example.ru',
      footerPhone: '+7 800',
    });
    expect(pub.contactInfo).toMatchObject({
      phone: '+7 999 999-99-99',
      siteName: 'Каспий-Дом',
      email: 'nested@example.ru',
    });
  });

  it('should save the whole settings object sent back by the panel, ignoring unknown keys', async () => {
    const cookie = await login();
    const current = await getJson<Settings>('/api/admin/settings', cookie);
    const features = [{ title: 'Тишина', description: 'Никаких дискотек' }];
    const res = await jsonRequest(
      'PUT',
      '/api/settings',
      {
        ...current,
        whyChooseUsTitle: 'Почему мы',
        whyChooseUsSubtitle: 'Коротко',
        whyChooseUsFeatures: features,
        unknownKey: 1,
      },
      { cookie },
    );
    expect(res.status).toBe(200);
    const s = await getSettings(env);
    expect(s).toMatchObject({
      whyChooseUsTitle: 'Почему мы',
      whyChooseUsSubtitle: 'Коротко',
      whyChooseUsFeatures: features,
    });
    expect(s).not.toHaveProperty('unknownKey');
    expect(await env.DB.prepare("SELECT 1 FROM settings WHERE key = 'unknownKey'").first()).toBeNull();
  });

  it('should show the admin the raw map code and the public only a sanitised Yandex frame', async () => {
    const cookie = await login();
    await updateSettings(env, { mapEmbedCode: yandexCode });
    const admin = await getJson<Settings>('/api/admin/settings', cookie);
    expect(admin.mapEmbedCode).toBe(yandexCode);
    expect(admin.contactInfo.mapEmbedCode).toBe(yandexCode);
    const pub = await getJson<Settings & { mapSrc: string }>('/api/settings');
    expect(pub.mapSrc).toBe(YANDEX_SRC);
    expect(pub.mapEmbedCode).toBe(`<iframe src="${YANDEX_SRC}"></iframe>`);
    expect(pub.contactInfo.mapEmbedCode).toBe(pub.mapEmbedCode);
    expect(JSON.stringify(pub)).not.toMatch(/<script|onload=|api-maps/i);
  });

  it('should give the public a Google Maps frame too', async () => {
    await updateSettings(env, { mapEmbedCode: `<iframe src='${GOOGLE_SRC}' style="border:0"></iframe>` });
    const pub = await getJson<Settings & { mapSrc: string }>('/api/settings');
    expect(pub.mapSrc).toBe(GOOGLE_SRC);
    expect(pub.mapEmbedCode).toBe(`<iframe src="${GOOGLE_SRC}"></iframe>`);
  });

  it.each([
    ['another host', '<iframe src="https://evil.example/maps"></iframe>'],
    ['a look-alike host', '<iframe src="https://yandex.ru.evil.example/map-widget/v1/"></iframe>'],
    ['plain http', '<iframe src="http://yandex.ru/map-widget/v1/?um=x"></iframe>'],
    ['a script address', '<iframe src="javascript:alert(1)"></iframe>'],
    ['a Google page that is not a map', '<iframe src="https://www.google.com/search?q=x"></iframe>'],
    ['a bare script', '<script>alert(1)</script>'],
    ['plain text', 'Каспийск, ул. Приморская'],
  ])('should show visitors no map for %s', async (_, code) => {
    await updateSettings(env, { mapEmbedCode: code });
    const pub = await getJson<Settings & { mapSrc: string | null }>('/api/settings');
    expect(pub.mapSrc).toBeNull();
    expect(pub.mapEmbedCode).toBe('');
    expect(pub.contactInfo.mapEmbedCode).toBe('');
    expect((await getSettings(env)).mapEmbedCode).toBe(code);
  });

  it.each([
    ['a check-in time that is not a time', { checkInTime: '25:00' }, MSG.timeInvalid],
    ['a site name of 81 characters', { siteName: 'я'.repeat(81) }, MSG.tooLong],
    ['a nested phone of 41 characters', { contactInfo: { phone: '1'.repeat(41) } }, MSG.tooLong],
    ['a bad e-mail', { email: 'не почта' }, MSG.reviewEmailInvalid],
    ['a title as a number', { heroTitle: 5 }, MSG.badInput],
    ['features as a string', { whyChooseUsFeatures: 'много' }, undefined],
    ['a feature without a title', { whyChooseUsFeatures: [{ description: 'x' }] }, MSG.badInput],
    ['a gallery image with a script scheme', { galleryImages: ['javascript:alert(1)'] }, undefined],
    ['malformed JSON', '{"heroTitle": ', MSG.badJson],
    ['a JSON array', '[]', undefined],
  ] as [string, unknown, string | undefined][])(
    'should refuse settings with %s (400) and change nothing',
    async (_, body, message) => {
      const cookie = await login();
      await updateSettings(env, { heroTitle: 'Как было', contactInfo: { phone: '+7 1' } });
      await expectNoChange(async () => {
        await expectError(await jsonRequest('PUT', '/api/settings', body, { cookie }), 400, message);
      });
    },
  );

  it('should refuse settings sent without a JSON content type (415)', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await send('PUT', '/api/settings', {
        cookie,
        body: '{"heroTitle":"x"}',
        headers: { 'content-type': 'text/plain' },
      });
      await expectError(res, 415);
    });
  });
});

describe('messengers for booking requests', () => {
  it('should save the Telegram username as pasted, the MAX link and the channels, and show them to visitors', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'PUT',
      '/api/settings',
      {
        telegramUsername: 'https://t.me/kaspiy_dom',
        maxLink: 'https://max.ru/u/kaspiy',
        bookingChannels: ['telegram', 'phone'],
      },
      { cookie },
    );
    expect(res.status).toBe(200);
    const pub = await getJson<Settings>('/api/settings');
    expect(pub).toMatchObject({
      telegramUsername: 'kaspiy_dom',
      maxLink: 'https://max.ru/u/kaspiy',
      bookingChannels: ['telegram', 'phone'],
    });
  });

  it.each([
    ['a Telegram name of Cyrillic letters', { telegramUsername: 'каспий_дом' }, MSG.telegramInvalid],
    ['a MAX link to another site', { maxLink: 'https://evil.example/max' }, MSG.maxLinkInvalid],
    ['no channel at all', { bookingChannels: [] }, MSG.channelsRequired],
    ['an unknown channel', { bookingChannels: ['viber'] }, MSG.badInput],
  ])('should refuse %s and change nothing', async (_, body, message) => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(await jsonRequest('PUT', '/api/settings', body, { cookie }), 400, message),
    );
  });
});

describe('the retention of booking requests', () => {
  it('should default to 3 years, take 1 to 10, and refuse anything else', async () => {
    const cookie = await login();
    expect((await getJson<Settings>('/api/settings')).bookingRetentionYears).toBe(3);
    expect((await jsonRequest('PUT', '/api/settings', { bookingRetentionYears: 5 }, { cookie })).status).toBe(200);
    expect((await getJson<Settings>('/api/settings')).bookingRetentionYears).toBe(5);
    for (const bad of [0, 11, 2.5, '3']) {
      await expectNoChange(async () =>
        expectError(
          await jsonRequest('PUT', '/api/settings', { bookingRetentionYears: bad }, { cookie }),
          400,
          MSG.retentionInvalid,
        ),
      );
    }
  });
});

describe('the register of classified accommodation (the legal lines)', () => {
  it('should be empty by default, and save the number and the link for every visitor to read', async () => {
    const cookie = await login();
    expect(await getJson<Settings>('/api/settings')).toMatchObject({ registryNumber: '', registryUrl: '' });
    const entry = { registryNumber: ' С052024000123 ', registryUrl: 'https://tourism.gov.ru/reestr/123' };
    expect((await jsonRequest('PUT', '/api/settings', entry, { cookie })).status).toBe(200);
    expect(await getJson<Settings>('/api/settings')).toMatchObject({
      registryNumber: 'С052024000123',
      registryUrl: 'https://tourism.gov.ru/reestr/123',
    });
  });

  it.each([
    ['a plain http link', { registryUrl: 'http://tourism.gov.ru/reestr/123' }, MSG.registryUrlInvalid],
    ['a javascript: link', { registryUrl: 'javascript:alert(1)' }, MSG.registryUrlInvalid],
    ['words instead of a link', { registryUrl: 'реестр' }, MSG.registryUrlInvalid],
    ['a number of 61 characters', { registryNumber: '1'.repeat(61) }, MSG.tooLong],
  ])('should refuse %s and change nothing', async (_, body, message) => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(await jsonRequest('PUT', '/api/settings', body, { cookie }), 400, message),
    );
  });
});

describe('«Продвижение»: Yandex Webmaster and Metrika, the owner’s alone', () => {
  const META = '<meta name="yandex-verification" content="4f2a9c1e7b3d5a60" />';

  it('should be empty by default, and keep the code, the counter and the key for the site to build with', async () => {
    const cookie = await login();
    expect((await getJson<Settings>('/api/settings')).promotion).toEqual({
      webmasterCode: '',
      metrikaId: '',
      indexNowKey: '',
    });
    const promotion = { webmasterCode: 'a1B2c3D4e5', metrikaId: ' 98765432 ', indexNowKey: '' };
    expect((await jsonRequest('PUT', '/api/settings', { promotion }, { cookie })).status).toBe(200);
    expect((await getJson<Settings>('/api/settings')).promotion).toEqual({
      webmasterCode: 'a1B2c3D4e5',
      metrikaId: '98765432',
      indexNowKey: '',
    });
  });

  it('should keep the IndexNow key the server made when a form sends the empty key it read, and take a new one', async () => {
    const cookie = await login();
    const promotion = { webmasterCode: '', metrikaId: '98765432', indexNowKey: '' };
    expect((await jsonRequest('PUT', '/api/settings', { promotion }, { cookie })).status).toBe(200);
    // The schedule makes the key while the owner's form is open (worker/indexnow/site.ts).
    await env.DB.prepare(
      "UPDATE settings SET value = json_set(value, '$.indexNowKey', 'made0by0the0server') WHERE key = 'promotion'",
    ).run();
    const again = { ...promotion, metrikaId: '11112222' };
    expect((await jsonRequest('PUT', '/api/settings', { promotion: again }, { cookie })).status).toBe(200);
    expect((await getJson<Settings>('/api/settings')).promotion).toEqual({
      ...again,
      indexNowKey: 'made0by0the0server',
    });
    const own = { ...again, indexNowKey: 'owners-own-key-1' };
    expect((await jsonRequest('PUT', '/api/settings', { promotion: own }, { cookie })).status).toBe(200);
    expect((await getJson<Settings>('/api/settings')).promotion.indexNowKey).toBe('owners-own-key-1');
  });

  it('should take the whole meta tag Webmaster shows and keep only its code', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'PUT',
      '/api/settings',
      { promotion: { webmasterCode: META, metrikaId: 12345678 } },
      { cookie },
    );
    expect(res.status).toBe(200);
    expect((await getJson<Settings>('/api/settings')).promotion).toMatchObject({
      webmasterCode: '4f2a9c1e7b3d5a60',
      metrikaId: '12345678',
    });
  });

  it.each([
    ['a code with Cyrillic letters', { webmasterCode: 'кодвебмастера' }, MSG.webmasterCodeInvalid],
    [
      'a meta tag of another service',
      { webmasterCode: '<meta name="google" content="a b">' },
      MSG.webmasterCodeInvalid,
    ],
    ['a code too short to be one', { webmasterCode: 'abc' }, MSG.webmasterCodeInvalid],
    ['a counter with letters', { metrikaId: 'ym-98765432' }, MSG.metrikaIdInvalid],
    ['a counter of three digits', { metrikaId: '123' }, MSG.metrikaIdInvalid],
    ['a counter that is a fraction', { metrikaId: 9876.5 }, MSG.metrikaIdInvalid],
    ['an IndexNow key with a space', { indexNowKey: 'abc def 123' }, MSG.indexNowKeyInvalid],
  ])(
    'should refuse %s with the message the panel shows at the field, and change nothing',
    async (_, fields, message) => {
      const cookie = await login();
      await expectNoChange(async () =>
        expectError(await jsonRequest('PUT', '/api/settings', { promotion: fields }, { cookie }), 400, message),
      );
    },
  );

  it('should refuse a manager (403) and keep the owner’s counter, while a manager’s form sending it back unchanged saves', async () => {
    const owner = await login();
    const promotion = { webmasterCode: 'a1B2c3D4e5', metrikaId: '98765432', indexNowKey: '' };
    expect((await jsonRequest('PUT', '/api/settings', { promotion }, { cookie: owner })).status).toBe(200);
    await seedUser('menedzher', 'manager-pass-1');
    const manager = await login({ username: 'menedzher', password: 'manager-pass-1' });
    await expectNoChange(async () =>
      expectError(
        await jsonRequest(
          'PUT',
          '/api/settings',
          { promotion: { ...promotion, metrikaId: '11112222' } },
          { cookie: manager },
        ),
        403,
        MSG.forbidden,
      ),
    );
    expect(
      (await jsonRequest('PUT', '/api/settings', { heroTitle: 'Море рядом', promotion }, { cookie: manager })).status,
    ).toBe(200);
    expect((await getJson<Settings>('/api/settings')).promotion.metrikaId).toBe('98765432');
  });
});
