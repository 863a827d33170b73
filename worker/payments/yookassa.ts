// A small typed client of ЮKassa's REST API v3: no npm client for it is widely used,
// so this is plain fetch (the same on Workers and on Node) with zod schemas of the answers we
// read. Basic auth with the shop id and secret key; every create carries an Idempotence-Key, so a
// retried request never makes a second payment or refund.
import { z } from 'zod';
import type { Bindings } from '../env.ts';

const DEFAULT_API = 'https://api.yookassa.ru/v3';
/** ЮKassa answers within a few seconds; a guest waiting longer is told to try later. */
const TIMEOUT_MS = 10_000;

export type YooKassa = { shopId: string; secretKey: string; apiUrl: string };

/** The shop's settings, or null when its secrets are not set (prepayment cannot be switched on). */
export function yookassaOf(env: Bindings): YooKassa | null {
  if (!env.YOOKASSA_SHOP_ID || !env.YOOKASSA_SECRET_KEY) return null;
  return {
    shopId: env.YOOKASSA_SHOP_ID,
    secretKey: env.YOOKASSA_SECRET_KEY,
    apiUrl: (env.YOOKASSA_API_URL || DEFAULT_API).replace(/\/+$/, ''),
  };
}

const amountSchema = z.object({ value: z.string(), currency: z.string() });
export type Amount = z.infer<typeof amountSchema>;

export const paymentSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
  paid: z.boolean(),
  amount: amountSchema,
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type YooPayment = z.infer<typeof paymentSchema>;

export const refundSchema = z.object({
  id: z.string().min(1),
  payment_id: z.string(),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  amount: amountSchema,
});
export type YooRefund = z.infer<typeof refundSchema>;

export const receiptAnswerSchema = z.object({ id: z.string(), type: z.string(), status: z.string() });

/** What a receipt's one item says (54-ФЗ, «Чеки от ЮKassa»). */
export type ReceiptItem = {
  description: string;
  quantity: string;
  amount: Amount;
  vat_code: number;
  payment_mode: 'full_prepayment' | 'partial_prepayment' | 'full_payment';
  payment_subject: 'service';
};
export type Receipt = { customer: { phone?: string; email?: string }; items: ReceiptItem[] };

/** ЮKassa did not answer, or answered with an error: the message says which, for the log. */
export class YooKassaError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'YooKassaError';
    this.status = status;
  }
}

async function call<T>(
  shop: YooKassa,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  body?: unknown,
  idempotenceKey?: string,
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Basic ${btoa(`${shop.shopId}:${shop.secretKey}`)}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotenceKey) headers['idempotence-key'] = idempotenceKey;
  let res: Response;
  try {
    res = await fetch(`${shop.apiUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new YooKassaError(`ЮKassa did not answer ${method} ${path}: ${err instanceof Error ? err.message : err}`);
  }
  const text = await res.text();
  if (!res.ok)
    throw new YooKassaError(`ЮKassa answered ${res.status} to ${method} ${path}: ${text.slice(0, 300)}`, res.status);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new YooKassaError(`ЮKassa's answer to ${method} ${path} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new YooKassaError(
      `ЮKassa's answer to ${method} ${path} has an unexpected shape: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}

/** Kopecks as ЮKassa's amount: «1500.00» roubles. */
export const rub = (kopecks: number): Amount => ({
  value: `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`,
  currency: 'RUB',
});
/** ЮKassa's amount back to kopecks. */
export const kopecksOf = (amount: Amount): number => Math.round(Number(amount.value) * 100);

export type CreatePayment = {
  amount: Amount;
  /** false: a hold on the guest's card (a deposit), captured in part or cancelled later. */
  capture: boolean;
  confirmation: { type: 'redirect'; return_url: string };
  description: string;
  metadata: Record<string, string>;
  receipt: Receipt;
};

export const createPayment = (shop: YooKassa, body: CreatePayment, key: string) =>
  call(shop, 'POST', '/payments', paymentSchema, body, key);
/** Takes all or `amount` of a held payment; the rest goes back to the card. */
export const capturePayment = (shop: YooKassa, id: string, body: { amount: Amount; receipt: Receipt }, key: string) =>
  call(shop, 'POST', `/payments/${encodeURIComponent(id)}/capture`, paymentSchema, body, key);
/** Lets a held payment go: the whole of it goes back to the card. */
export const cancelPayment = (shop: YooKassa, id: string, key: string) =>
  call(shop, 'POST', `/payments/${encodeURIComponent(id)}/cancel`, paymentSchema, {}, key);
export const getPayment = (shop: YooKassa, id: string) =>
  call(shop, 'GET', `/payments/${encodeURIComponent(id)}`, paymentSchema);
export const createRefund = (
  shop: YooKassa,
  body: { payment_id: string; amount: Amount; description: string; receipt: Receipt },
  key: string,
) => call(shop, 'POST', '/refunds', refundSchema, body, key);
export const getRefund = (shop: YooKassa, id: string) =>
  call(shop, 'GET', `/refunds/${encodeURIComponent(id)}`, refundSchema);
/** A receipt of its own: the settlement at check-in that offsets the prepayment. */
export const createReceipt = (
  shop: YooKassa,
  body: Receipt & {
    payment_id: string;
    type: 'payment';
    send: true;
    settlements: { type: 'prepayment'; amount: Amount }[];
  },
  key: string,
) => call(shop, 'POST', '/receipts', receiptAnswerSchema, body, key);
