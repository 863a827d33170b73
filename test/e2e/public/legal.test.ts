import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { settings, textOf, visible } from './helpers.ts';

// «The legal lines»: the entry in the register of classified accommodation on every
// page and in the JSON-LD, and the consent to the processing of personal data as a document of
// its own, linked from every form that takes personal data.

describe('the legal lines', () => {
  const { baseURL, openPage } = useBrowser();

  it('should show the register number with its link in the footer of every page, on the contacts page and in the JSON-LD', async () => {
    const { registryNumber, registryUrl } = await settings(baseURL);
    expect(registryNumber).not.toBe('');
    for (const path of ['/', '/cabins', '/reviews', '/privacy']) {
      const page = await openPage(path, 'phone');
      const line = page.locator('.site-footer__registry');
      expect(await textOf(line)).toBe(`Номер в реестре классифицированных средств размещения: ${registryNumber}`);
      expect(await line.getByRole('link').getAttribute('href')).toBe(registryUrl);
    }
    const contacts = await openPage('/contacts', 'phone');
    await visible(contacts.locator('.contact-list').getByRole('link', { name: `№ ${registryNumber}` }));
    const ld = (await contacts.locator('script[type="application/ld+json"]').allTextContents()).map(
      (t) => JSON.parse(t) as { identifier?: { value: string; url?: string } },
    );
    expect(ld.some((d) => d.identifier?.value === registryNumber && d.identifier.url === registryUrl)).toBe(true);
  });

  it('should link every form that takes personal data to the consent, a page of its own', async () => {
    const contacts = await openPage('/contacts', 'phone');
    const reviews = await openPage('/reviews', 'phone');
    await reviews.getByRole('button', { name: 'Оставить отзыв' }).click();
    for (const page of [contacts, reviews]) {
      const link = page.locator('form').getByRole('link', { name: 'обработку персональных данных' });
      await visible(link);
      expect(await link.getAttribute('href')).toBe('/consent');
    }
    const consent = await openPage('/consent', 'phone');
    await visible(consent.getByRole('heading', { level: 1, name: 'Согласие на обработку персональных данных' }));
    const text = await textOf(consent.locator('main'));
    expect(text).toContain('Как отозвать согласие');
    expect(text).toContain('номер телефона');
    expect(
      await consent
        .locator('footer')
        .getByRole('link', { name: 'Согласие на обработку персональных данных' })
        .getAttribute('href'),
    ).toBe('/consent');
    const sitemap = await (await fetch(`${baseURL}/sitemap.xml`)).text();
    expect(sitemap).toContain('/consent</loc>');
  });
});
