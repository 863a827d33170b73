// The booking card's calendar as a visitor uses it, for every journey that picks a stay.
import type { Page } from 'playwright-core';

/** The calendar's button for a day, turning the months forward one at a time until it shows. */
export async function dayButton(page: Page, day: string) {
  const calendar = page.locator('.stay-calendar');
  const cell = calendar.locator(`[data-day="${day}"] button`);
  // The calendar's code and the free dates arrive after the tap.
  await calendar.locator('.rdp-caption_label').waitFor();
  for (let i = 0; i < 13 && !(await cell.count()); i++) {
    const month = await calendar.locator('.rdp-caption_label').innerText();
    await calendar.getByRole('button', { name: /следующему месяцу/i }).click();
    await page.waitForFunction((before) => document.querySelector('.stay-calendar .rdp-caption_label')?.textContent !== before, month);
  }
  await cell.waitFor();
  return cell;
}

/** Opens the card's calendar and picks the stay [checkIn, checkOut). */
export async function pickStay(page: Page, checkIn: string, checkOut: string) {
  await page.locator('#booking').getByLabel('Заезд').click();
  await (await dayButton(page, checkIn)).click();
  await (await dayButton(page, checkOut)).click();
}
