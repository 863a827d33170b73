import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, approvedReviews, visible } from '../public/helpers.ts';

// Hides every review for a moment: runs with the other content-changing journeys, one file at
// a time, after the read-only visitor journeys (vitest.config.ts).

describe('the reviews page without reviews', () => {
  const { baseURL, openPage } = useBrowser();

  it('should say «Пока нет отзывов» when none is approved', async () => {
    // Hide every approved review, check the page, then approve them again. The twelve go all at
    // once, so the site is rebuilt once each way: one after another on a busy machine they were
    // spread over more than one build (four builds of ~20 s in all, at a load of 11).
    const api = await adminApi(baseURL);
    const ids = (await approvedReviews(baseURL)).map((r) => r.id);
    try {
      const hidden = await Promise.all(ids.map((id) => api.put(`/reviews/${id}`, { approved: false })));
      expect(hidden.map((r) => r.status)).toEqual(ids.map(() => 200));
      await api.waitPublished();
      const page = await openPage('/reviews', 'phone');
      await visible(page.getByRole('heading', { name: 'Пока нет отзывов' }));
      await visible(page.getByText('Станьте первым, кто оставит отзыв!'));
    } finally {
      // Every review back, checked: a review left hidden would fail the visitor journeys after
      // this one with a cause far from here.
      const back = await Promise.all(ids.map((id) => api.put(`/reviews/${id}`, { approved: true })));
      const approved = new Set((await approvedReviews(baseURL)).map((r) => r.id));
      expect(
        ids.filter((id) => !approved.has(id)),
        `reviews not approved again (${back.map((r) => r.status).join(', ')})`,
      ).toEqual([]);
      await api.waitPublished();
      await api.logout();
    }
  });
});
