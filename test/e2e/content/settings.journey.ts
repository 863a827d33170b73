import { describe, expect, it } from 'vitest';
import { bodyOf } from '../../typed-api.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, settings, textOf, visible } from '../public/helpers.ts';

// Changes the settings and the catalogue: runs with the other content-changing journeys, one
// file at a time, after the read-only visitor journeys (vitest.config.ts).

describe('content from the admin panel', () => {
  const { baseURL, openPage } = useBrowser();

  it('should follow the settings (top level over contactInfo), show placeholders, and come back', async () => {
    const api = await adminApi(baseURL);
    const before = await settings(baseURL);
    // The stored settings as the panel sees them (the map code as typed), to put back after.
    const raw = await bodyOf(await api.client.settings.$put({ json: {} }), 200);
    let created: number | undefined;
    try {
      expect(
        (
          await api.put('/settings', {
            siteName: 'Каспий-Тест',
            contactInfo: { siteName: 'Не это имя' },
            checkInTime: '15:30',
            checkOutTime: '11:00',
            mapEmbedCode: '<iframe src="https://evil.example/map"></iframe>',
          })
        ).status,
      ).toBe(200);
      const res = await api.client.cabins.$post({
        json: { name: 'Домик без фото', description: 'Скоро покажем.', pricePerNight: 3000, images: [] },
      });
      expect(res.status).toBeLessThan(300);
      created = (await bodyOf(res, 201)).id;
      await api.waitPublished();

      const page = await openPage(`/cabin/${created}`, 'phone');
      await visible(page.getByRole('link', { name: 'Каспий-Тест' }));
      await visible(page.getByText('Фото скоро появится'));
      const rules = await textOf(page.locator('#booking'));
      expect(rules).toContain('Заезд после 15:30');
      expect(rules).toContain('Выезд до 11:00');
      await page.goto('/contacts');
      expect(await page.locator('iframe').count()).toBe(0);
      await visible(page.getByText('Интерактивная карта'));
      await visible(page.locator('.map--placeholder').getByText(before.address));
      let found = false;
      for (const path of ['/cabins', '/cabins/2']) {
        await page.goto(path);
        const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Домик без фото' }) });
        if ((await card.count()) > 0) {
          found = true;
          await visible(card.getByText('Фото скоро появится'));
        }
      }
      expect(found).toBe(true);
    } finally {
      if (created !== undefined) await api.del(`/cabins/${created}`);
      await api.put('/settings', {
        siteName: raw.siteName,
        contactInfo: { siteName: raw.contactInfo.siteName },
        checkInTime: before.checkInTime,
        checkOutTime: before.checkOutTime,
        mapEmbedCode: raw.mapEmbedCode,
      });
      await api.waitPublished();
      await api.logout();
    }
    // Two site-wide edits, each waiting until every page is built again: on a busy two-core runner
    // (the other projects run beside the journeys) the pair took over two minutes. The guest page's
    // journey, with two as well, allows as long.
  }, 180_000);
});
