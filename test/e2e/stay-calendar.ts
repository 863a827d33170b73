// The booking card's calendar as a visitor uses it, for every journey that picks a stay.
import type { Locator, Page } from 'playwright-core';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { stayRules, type Availability } from '../../site/lib/stay-picker.ts';

/**
 * The calendar's button for a day, turning the months one at a time, back or forward, until it
 * shows. Days of the months around are hidden in a month's grid, so a stay's last morning can be
 * in the month after the one shown, and the next day asked for in the one before.
 */
export async function dayButton(page: Page, day: string) {
  const calendar = page.locator('.stay-calendar');
  const cell = calendar.locator(`[data-day="${day}"]:not(.rdp-outside) button`);
  // The calendar's code and the free dates arrive after the tap.
  await calendar.locator('.rdp-caption_label').waitFor();
  for (let i = 0; i < 13 && !(await cell.count()); i++) {
    const month = await calendar.locator('.rdp-caption_label').first().innerText();
    const firstShown = await calendar.locator('.rdp-day:not(.rdp-outside)[data-day]').first().getAttribute('data-day');
    const way = firstShown && day < firstShown ? /предыдущему месяцу/i : /следующему месяцу/i;
    await calendar.getByRole('button', { name: way }).click();
    await page.waitForFunction(
      (before) => document.querySelector('.stay-calendar .rdp-caption_label')?.textContent !== before,
      month,
    );
  }
  await cell.waitFor();
  return cell;
}

/** Opens the calendar of the card (or of `where`: a search form) and picks the stay [checkIn, checkOut). */
export async function pickStay(
  page: Page,
  checkIn: string,
  checkOut: string,
  where: Locator = page.locator('#booking'),
) {
  await where.getByLabel('Заезд').click();
  await (await dayButton(page, checkIn)).click();
  await (await dayButton(page, checkOut)).click();
}

/** A cabin as GET /api/cabins lists it (what the journeys read of it). */
export type ListedCabin = { id: number; name: string; deposit?: number };

/**
 * The first cabin of the catalogue free for a stay from tomorrow or the day after, of one to four
 * nights its rules allow: a stay a journey can book now, whatever the others have booked.
 */
export async function freeStaySoon(
  baseURL: string,
): Promise<{ cabin: ListedCabin; checkIn: string; checkOut: string }> {
  const today = todayInMoscow();
  const cabins = (await (await fetch(`${baseURL}/api/cabins`)).json()) as ListedCabin[];
  for (const cabin of cabins) {
    const a = (await (await fetch(`${baseURL}/api/cabins/${cabin.id}/availability`)).json()) as Availability;
    const rules = stayRules(a);
    for (let d = 1; d <= 2; d++) {
      const checkIn = addDays(today, d);
      for (let n = 1; n <= 4; n++) {
        const checkOut = addDays(checkIn, n);
        const free = !a.busy.some((b) => b.start < checkOut && checkIn < b.end);
        if (free && rules.quote(checkIn, checkOut).minNights <= n) return { cabin, checkIn, checkOut };
      }
    }
  }
  throw new Error('no cabin free tomorrow or the day after for up to 4 nights');
}
