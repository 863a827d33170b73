// The booking card's price with a promo code: GET /api/quote, the price the server
// gives for the stay, the guests, the extras ticked and the code, exactly what POST /api/bookings
// stores. Without a code the card prices locally by the same function (stay-picker.ts).
import type { PriceLine } from '../../schema/payment-options.ts';

/** What GET /api/quote answers. */
export type ServerQuote = {
  nights: number;
  total: number;
  lines: PriceLine[];
  minNights: number;
  maxNights: number | null;
  extras: number[];
};

/** A stay as asked of the server: the optional extras ticked and the code as typed. */
export type QuoteAsk = {
  cabinId: number;
  checkIn: string;
  checkOut: string;
  guests: number;
  childrenAges?: readonly number[];
  pets?: boolean;
  extras: readonly number[];
  promo: string;
};

/** The address of GET /api/quote; the same question gives the same address (it serves as its key). */
export function quoteUrl(ask: QuoteAsk): string {
  const q = new URLSearchParams({
    cabinId: String(ask.cabinId),
    checkIn: ask.checkIn,
    checkOut: ask.checkOut,
    guests: String(ask.guests),
  });
  if (ask.childrenAges?.length) q.set('childrenAges', ask.childrenAges.join(','));
  if (ask.pets) q.set('pets', '1');
  if (ask.extras.length) q.set('extras', [...ask.extras].sort((a, b) => a - b).join(','));
  if (ask.promo) q.set('promo', ask.promo);
  return `/api/quote?${q}`;
}

export type QuoteAnswer = { ok: true; quote: ServerQuote } | { ok: false; refused: string | null };

/**
 * GET /api/quote: the quote; or `refused`, the server's reason in Russian (a code that does not
 * apply: not found, not yet, expired, used up, not for these dates); or `refused: null` when the
 * network or the server let us down. An aborted ask throws.
 */
export async function askQuote(ask: QuoteAsk, signal?: AbortSignal): Promise<QuoteAnswer> {
  try {
    const res = await fetch(quoteUrl(ask), { signal });
    const body = (await res.json().catch(() => null)) as (ServerQuote & { error?: string }) | null;
    if (res.ok && body && Array.isArray(body.lines) && typeof body.total === 'number') return { ok: true, quote: body };
    return {
      ok: false,
      refused: res.status >= 400 && res.status < 500 && res.status !== 429 && body?.error ? body.error : null,
    };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, refused: null };
  }
}
