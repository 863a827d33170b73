import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, gone, notice, photo, signIn, visible, waitLive, waitPublished } from './helpers.ts';

describe('the owner manages the home gallery', () => {
  const { baseURL, openPage } = useBrowser();
  let original: string[];

  const gallery = async () => {
    const api = await adminApi(baseURL);
    const { galleryImages } = await (await api.client.admin.settings.$get()).json();
    await api.logout();
    return galleryImages;
  };

  beforeAll(async () => {
    original = await gallery();
  });

  afterAll(async () => {
    const api = await adminApi(baseURL);
    await api.put('/settings', { galleryImages: original });
    await api.logout();
    await waitLive(baseURL);
  });

  it('should save a dropped, reordered and removed photo at once', async () => {
    const page = await openPage('/admin#gallery', 'phone');
    await signIn(page);
    const photos = page.getByRole('list', { name: 'Фотографии галереи' }).getByRole('listitem');
    await visible(photos);
    const count = await photos.count();
    expect(count).toBe(original.length);
    await visible(page.getByText('JPG, PNG, GIF max 10MB each'));

    // Dropped onto the upload area (the file picker is used in the cabin journey).
    const bytes = (await photo('beach.jpg', 90)).buffer.toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'beach.jpg', { type: 'image/jpeg' }));
      return dt;
    }, bytes);
    await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
    await visible(notice(page, 'Галерея сохранена'));
    await expect.poll(() => photos.count(), { timeout: 10_000 }).toBe(count + 1);
    const saved = await gallery();
    expect(saved).toHaveLength(count + 1);
    expect(saved.slice(0, count)).toEqual(original);
    await waitPublished(page);

    // The new photo moves one place earlier, and the order is saved.
    await page.getByRole('button', { name: `Фото ${count + 1}: переместить раньше` }).click();
    await expect.poll(async () => (await gallery())[count - 1], { timeout: 10_000 }).toBe(saved[count]);

    // Removing asks first.
    await page.getByRole('button', { name: `Удалить фото ${count}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Удалить' }).click();
    await gone(page.getByRole('alertdialog'));
    await expect.poll(async () => await gallery(), { timeout: 10_000 }).toEqual(original);
    await expect.poll(() => photos.count(), { timeout: 10_000 }).toBe(count);
  });
});
