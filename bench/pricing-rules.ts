import { addDays, todayInMoscow } from '../schema/dates.ts';

/**
 * Sets the pricing an owner who sells like the paid engines would on every cabin of a
 * served target, through its admin API, before the growth stage clones them: a weekend price, two
 * guests in the price and a fee for each further one, a few single dates, a long-stay and an
 * early-booking discount, a mandatory and an optional extra. So search at 1,500 cabins is
 * measured with every rule the one pricing function knows, not with the bare season price.
 */
export async function applyPricingRules(base: string, cookie: string): Promise<void> {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', origin: base },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  };
  const cabins = (await (await fetch(`${base}/api/admin/cabins`, { headers: { cookie } })).json()) as {
    id: number;
    pricePerNight: number;
    maxGuests: number;
  }[];
  const today = todayInMoscow();
  for (const c of cabins) {
    await call('PUT', `/api/cabins/${c.id}`, {
      weekendPricePerNight: c.pricePerNight + 1500,
      baseGuests: Math.min(2, c.maxGuests),
      extraGuestPerNight: 500,
    });
    await call('PUT', `/api/admin/cabins/${c.id}/date-prices`, {
      prices: [20, 21, 45].map((n) => ({ date: addDays(today, n), price: c.pricePerNight * 2 })),
    });
  }
  await call('PUT', '/api/admin/pricing', {
    discounts: [
      { kind: 'longStay', minNights: 7, percent: 10 },
      { kind: 'earlyBooking', minDaysAhead: 25, percent: 5 },
    ],
    extras: [
      { name: 'Постельное бельё', price: 300, per: 'guest', mandatory: true },
      { name: 'Баня', price: 2000, per: 'stay', mandatory: false },
    ],
  });
}
