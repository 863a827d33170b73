import { describe, expect, it } from 'vitest';
import { slowCpu, useBrowser, type ViewportName } from '../browser.ts';
import { settings, textOf, visible, waDigits } from './helpers.ts';

describe.each<ViewportName>(['phone', 'desktop'])('the contacts page on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();

  it('should list the phone, WhatsApp, e-mail, address and working hours as links', async () => {
    const s = await settings(baseURL);
    const page = await openPage('/contacts', viewport);
    await visible(page.getByRole('heading', { level: 1, name: 'Контакты' }));
    const list = page.locator('.contact-list');
    expect(await list.getByRole('link', { name: s.phone }).getAttribute('href')).toBe(
      `tel:+${s.phone.replace(/\D/g, '')}`,
    );
    const wa = list.getByRole('link', { name: 'Написать в WhatsApp' });
    expect(await wa.getAttribute('href')).toBe(`https://wa.me/${waDigits(s.phone)}`);
    expect(await wa.getAttribute('target')).toBe('_blank');
    expect(await list.getByRole('link', { name: s.email }).getAttribute('href')).toBe(`mailto:${s.email}`);
    const text = await textOf(list);
    expect(text).toContain(s.address);
    expect(text).toMatch(/Пн–Пт: \S+/);
    expect(text).toMatch(/Сб–Вс: \S+/);
  });

  it('should show the map frame, sandboxed, under «Как нас найти», loading it only when the visitor nears it', async () => {
    const s = await settings(baseURL);
    expect(s.mapSrc).toBeTruthy();
    const page = await openPage('/contacts', viewport);
    // The first screen loads without the map's site: no frame while the map is screens away.
    const far = await page.locator('[data-map-src]').evaluate((el) => el.getBoundingClientRect().top > 2 * innerHeight);
    if (far) expect(await page.locator('iframe.map').count()).toBe(0);
    await page.getByRole('heading', { name: 'Как нас найти' }).scrollIntoViewIfNeeded();
    await visible(page.getByRole('heading', { name: 'Как нас найти' }));
    const frame = page.locator('iframe.map');
    await frame.waitFor({ state: 'attached' });
    expect(await frame.getAttribute('src')).toBe(s.mapSrc);
    expect(await frame.getAttribute('loading')).toBe('lazy');
    expect(await frame.getAttribute('sandbox')).toContain('allow-scripts');
    expect(await frame.getAttribute('title')).toContain(s.address);
  });

  it('should ask for name, e-mail, message and consent, the phone being optional', async () => {
    const page = await openPage('/contacts', viewport);
    const form = page.getByRole('form', { name: 'Напишите нам' });
    await form.scrollIntoViewIfNeeded();
    await page.locator('form[data-ready]').waitFor();
    await form.getByRole('button', { name: 'Отправить сообщение' }).click();
    await visible(form.getByRole('alert').getByText('Пожалуйста, заполните все обязательные поля'));
    await form.getByLabel(/^Имя/).fill('Амир');
    await form.getByLabel(/^Email/).fill('amir@example.ru');
    await form.getByLabel(/^Сообщение/).fill('Есть ли свободный домик на майские?');
    await form.getByRole('button', { name: 'Отправить сообщение' }).click();
    await visible(form.getByRole('alert').getByText('Необходимо согласие на обработку персональных данных'));
  });

  it('should wait a second, open WhatsApp in a new tab with the message, clear the form and confirm', async () => {
    const s = await settings(baseURL);
    const page = await openPage('about:blank', viewport);
    // Record the new tab instead of leaving for wa.me (there is no internet here).
    await page.addInitScript(() => {
      (window as unknown as { opened: unknown[] }).opened = [];
      window.open = (...args: unknown[]) => {
        (window as unknown as { opened: unknown[] }).opened.push(args);
        // As browsers do: with the 'noopener' feature the caller gets null even when the tab opened.
        return String(args[2] ?? '').includes('noopener') ? null : ({ opener: window } as unknown as Window);
      };
    });
    await page.goto('/contacts');
    const form = page.getByRole('form', { name: 'Напишите нам' });
    await form.scrollIntoViewIfNeeded();
    await page.locator('form[data-ready]').waitFor();
    await form.getByLabel(/^Имя/).fill('Амир');
    await form.getByLabel(/^Email/).fill('amir@example.ru');
    await form.getByLabel(/^Телефон/).fill('+7 900 111-22-33');
    await form.getByLabel(/^Сообщение/).fill('Есть ли свободный домик на майские?');
    await form.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ }).check();
    const started = Date.now();
    await form.getByRole('button', { name: 'Отправить сообщение' }).click();
    await visible(form.getByRole('button', { name: 'Отправка...' }));
    await visible(form.getByText('Сообщение отправлено! Мы свяжемся с вами в ближайшее время.'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const opened = (await page.evaluate(() => (window as unknown as { opened: string[][] }).opened)) as string[][];
    expect(opened).toHaveLength(1);
    const [url, target] = opened[0]!;
    expect(target).toBe('_blank');
    expect(url!.startsWith(`https://wa.me/${waDigits(s.phone)}?text=`)).toBe(true);
    const text = new URL(url!).searchParams.get('text')!;
    for (const part of [
      'Имя: Амир',
      'E-mail: amir@example.ru',
      'Телефон: +7 900 111-22-33',
      'Сообщение: Есть ли свободный домик на майские?',
    ]) {
      expect(text).toContain(part);
    }
    expect(await form.getByLabel(/^Имя/).inputValue()).toBe('');
    expect(await form.getByLabel(/^Сообщение/).inputValue()).toBe('');
    expect(await form.getByRole('checkbox').isChecked()).toBe(false);
    // The chat did open: no «if WhatsApp did not open» for this visitor.
    expect(await textOf(form)).not.toContain('Если WhatsApp не открылся');
  });

  it('should keep what a visitor typed before the form woke up on a slow phone, and send it', async () => {
    const page = await openPage('about:blank', viewport);
    await page.addInitScript(() => {
      (window as unknown as { opened: unknown[] }).opened = [];
      window.open = (...args: unknown[]) => {
        (window as unknown as { opened: unknown[] }).opened.push(args);
        return null;
      };
    });
    // A slow phone: the CPU 6× slower and the scripts held back until the visitor has typed.
    await slowCpu(page, 6);
    let release!: () => void;
    const typed = new Promise<void>((r) => (release = r));
    await page.route(/\.js(\?|$)/, async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto('/contacts', { waitUntil: 'domcontentloaded' });
    const form = page.getByRole('form', { name: 'Напишите нам' });
    await form.scrollIntoViewIfNeeded();
    expect(await page.locator('form[data-ready]').count()).toBe(0);
    await form.getByLabel(/^Имя/).fill('Зарема');
    await form.getByLabel(/^Email/).fill('zarema@example.ru');
    await form.getByLabel(/^Сообщение/).fill('Напечатано до загрузки скрипта');
    await form.getByRole('checkbox', { name: /Я согласен/ }).check();
    release();
    await page.locator('form[data-ready]').waitFor();
    expect(await form.getByLabel(/^Имя/).inputValue()).toBe('Зарема');
    expect(await form.getByLabel(/^Сообщение/).inputValue()).toBe('Напечатано до загрузки скрипта');
    expect(await form.getByRole('checkbox', { name: /Я согласен/ }).isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Отправить сообщение' }).click();
    await visible(form.getByText('Сообщение отправлено! Мы свяжемся с вами в ближайшее время.'), 15_000);
    const opened = (await page.evaluate(() => (window as unknown as { opened: string[][] }).opened)) as string[][];
    expect(new URL(opened[0]![0]!).searchParams.get('text')).toContain('Имя: Зарема');
    // A blocked tab (window.open gave nothing): the visitor gets the link.
    await visible(form.getByText('Если WhatsApp не открылся'));
  });
});
