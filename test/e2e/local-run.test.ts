import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { apiAt } from '../typed-api.ts';

describe('the local run', () => {
  const { baseURL, openPage } = useBrowser();

  it('should serve the demo cabins from the API', async () => {
    const res = await apiAt(baseURL).cabins.$get({ query: {} });
    const cabins = await res.json();
    expect(res.status).toBe(200);
    expect(cabins.length).toBeGreaterThanOrEqual(14);
    expect(cabins.every((c) => c.active)).toBe(true);
  });

  it('should answer the health check with the live build, uncached', async () => {
    const [health, built] = await Promise.all([
      fetch(`${baseURL}/api/health`),
      fetch(`${baseURL}/build.json`).then((r) => r.json()),
    ]);
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    const { contentVersion, builtAt } = built as { contentVersion: number; builtAt: string };
    expect(await health.json()).toEqual({ ok: true, contentVersion, builtAt });
  });

  it('should show the built home page in the browser', async () => {
    const page = await openPage('/');
    await expect(page.title()).resolves.toMatch(/Каспий/);
  });

  it('should answer an unknown page with the site 404 page', async () => {
    const res = await fetch(`${baseURL}/no-such-page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Страница не найдена');
  });

  it('should serve the admin shell at /admin and nowhere else', async () => {
    const admin = await fetch(`${baseURL}/admin`);
    expect(admin.status).toBe(200);
    expect(admin.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${baseURL}/shell/admin`)).status).toBe(404);
  });
});
