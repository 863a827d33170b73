// A stand-in for ЮKassa's API v3 on this machine: tests and `npm start` use it where
// the real ЮKassa cannot be reached. It keeps what a shop sees (payments, refunds, receipts) in
// memory, checks the Basic auth and the Idempotence-Key as ЮKassa does, and serves a payment page
// with «Оплатить» and «Отменить» that "pays", tells the shop by notification and sends the guest
// back to the return address. GET /_log lists every receipt it was given and every create asked
// for with its Idempotence-Key (`calls`); POST /_fail-refunds makes refunds of one payment fail.
// A payment made with `capture: false` is a hold (a deposit): «Оплатить» leaves it
// waiting_for_capture until the shop captures all or part of it (POST /payments/{id}/capture, with
// the receipt of the part kept) or cancels it (POST /payments/{id}/cancel), as ЮKassa's two-stage
// payments work; POST /_holds {"shopId": "…", "enabled": false} refuses that shop's holds with
// ЮKassa's 403, as a shop without two-stage payments is refused.
// It serves more shops than its own: POST /_shops {"shopId", "secretKey"} adds one, and
// POST /_outage {"down": true, "shopId"} answers 503 to that shop's calls only (the stand-in's own
// shop when none is named), so a test that takes its shop down never takes down a test running
// beside it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { steadyServer } from './steady-server.ts';
import { escapeHtml } from '../schema/html.ts';

type Amount = { value: string; currency: string };
type Payment = {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: Amount;
  description: string;
  confirmation: { type: 'redirect'; confirmation_url: string; return_url: string };
  metadata: Record<string, string>;
  created_at: string;
  /** false: a hold, captured or cancelled by the shop later. */
  capture: boolean;
  /** When ЮKassa cancels a hold nobody decided (7 days for cards). */
  expires_at?: string;
};
type Refund = {
  id: string;
  payment_id: string;
  status: 'succeeded';
  amount: Amount;
  description: string;
  created_at: string;
};
export type LoggedReceipt = {
  kind: 'payment' | 'refund' | 'settlement' | 'capture';
  paymentId: string;
  receipt: unknown;
};
/** A create as the shop asked for it: the path, its Idempotence-Key, the amount, and what it made (or why not). */
export type LoggedCall = {
  path: string;
  key: string;
  amount?: string;
  paymentId?: string;
  id?: string;
  error?: string;
};

/** GET /_log of the stand-in at `url` (its base, not the API's /v3): everything it made and was given. */
export async function readLog(
  url: string,
): Promise<{ payments: Payment[]; refunds: Refund[]; receipts: LoggedReceipt[]; calls: LoggedCall[] }> {
  return (await fetch(`${url}/_log`)).json();
}

export type YooKassaStandIn = {
  /** The API's base, as YOOKASSA_API_URL: http://127.0.0.1:PORT/v3 */
  apiUrl: string;
  shopId: string;
  secretKey: string;
  payments: Map<string, Payment>;
  refunds: Map<string, Refund>;
  receipts: LoggedReceipt[];
  calls: LoggedCall[];
  /** Where notifications go (the shop's /api/payments/yookassa); unset: none are sent. */
  notifyUrl: string | undefined;
  close(): Promise<void>;
};

export type StandInOptions = {
  port?: number;
  host?: string;
  shopId?: string;
  secretKey?: string;
  notifyUrl?: string;
  log?: (line: string) => void;
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const error = (res: ServerResponse, status: number, code: string, description: string) =>
  json(res, status, { type: 'error', code, description });

/** ЮKassa's 403: the shop may not do this (two-stage payments not switched on). */
class Forbidden extends Error {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  return JSON.parse(text);
}

export async function startYooKassaStandIn(opts: StandInOptions = {}): Promise<YooKassaStandIn> {
  const shopId = opts.shopId ?? 'demo-shop';
  const secretKey = opts.secretKey ?? 'demo-secret-key';
  const payments = new Map<string, Payment>();
  const refunds = new Map<string, Refund>();
  const byKey = new Map<string, unknown>();
  const receipts: LoggedReceipt[] = [];
  const calls: LoggedCall[] = [];
  /** Payments whose refunds answer 503 for now (POST /_fail-refunds): an outage of one shop's refunds only. */
  const failingRefunds = new Set<string>();
  const log = opts.log ?? (() => {});
  let base = '';
  const state: YooKassaStandIn = {
    apiUrl: '',
    shopId,
    secretKey,
    payments,
    refunds,
    receipts,
    calls,
    notifyUrl: opts.notifyUrl,
    close: async () => {},
  };
  // The shops it serves, by id, with their keys: its own, and those tests add (POST /_shops).
  const shops = new Map<string, string>([[shopId, secretKey]]);
  // Tests may make a shop's API fail: a shop that is down answers 503 to every call, as an outage would.
  const downShops = new Set<string>();
  /** Shops whose holds are refused, as a shop without two-stage payments is (POST /_holds). */
  const refusedHolds = new Set<string>();
  const HOLD_MS = 7 * 24 * 3600_000;

  /** The shop a call is authenticated as, or null when its Basic auth names no shop we serve. */
  const shopOf = (req: IncomingMessage): string | null => {
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    if (scheme !== 'Basic' || !encoded) return null;
    const decoded = Buffer.from(encoded, 'base64').toString();
    const colon = decoded.indexOf(':');
    const shop = decoded.slice(0, colon);
    return colon > 0 && shops.get(shop) === decoded.slice(colon + 1) ? shop : null;
  };

  /** ЮKassa tells the shop; a shop that does not answer is its own problem (ЮKassa retries, we need not). */
  async function notify(event: string, object: unknown) {
    if (!state.notifyUrl) return;
    try {
      await fetch(state.notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'notification', event, object }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      log(`notification ${event} not delivered: ${err instanceof Error ? err.message : err}`);
    }
  }

  /** The guest paid or cancelled on the page: a hold waits for the shop, anything else is done. */
  function settle(p: Payment, status: 'succeeded' | 'canceled') {
    if (p.status !== 'pending') return false;
    p.status = status === 'succeeded' && !p.capture ? 'waiting_for_capture' : status;
    p.paid = status === 'succeeded';
    if (p.status === 'waiting_for_capture') p.expires_at = new Date(Date.now() + HOLD_MS).toISOString();
    return true;
  }

  /** A create with an Idempotence-Key seen before answers the same object, as ЮKassa does. */
  function idempotent(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    // biome-ignore lint/suspicious/noExplicitAny: the shop's request JSON, read field by field as the real API reads it
    body: Record<string, any>,
    make: () => unknown,
  ) {
    const key = req.headers['idempotence-key'];
    if (typeof key !== 'string' || !key)
      return error(res, 400, 'invalid_request', 'Idempotence-Key header is required');
    if (!byKey.has(key)) byKey.set(key, make());
    const made = byKey.get(key);
    const call: LoggedCall = { path, key, amount: body.amount?.value, paymentId: body.payment_id };
    if (made instanceof Error) {
      calls.push({ ...call, error: made.message });
      if (made instanceof Forbidden) return error(res, 403, 'forbidden', made.message);
      return error(res, 400, 'invalid_request', made.message);
    }
    calls.push({ ...call, id: (made as { id?: string }).id });
    return json(res, 200, made);
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const shop = shopOf(req);
    if (shop && downShops.has(shop)) return error(res, 503, 'internal_server_error', 'The stand-in is down on purpose');
    if (!shop) return error(res, 401, 'invalid_credentials', 'Authentication by given credentials failed');
    // biome-ignore lint/suspicious/noExplicitAny: the shop's request JSON, read field by field as the real API reads it
    const body = req.method === 'POST' ? ((await readJson(req)) as Record<string, any>) : {};
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && path === '/payments') {
      return idempotent(req, res, path, body, () => {
        if (!body.amount?.value || !body.confirmation?.return_url)
          return new Error('amount and confirmation.return_url are required');
        if (!body.receipt?.items?.length)
          return new Error('receipt is required («Чеки от ЮKassa» are on for this shop)');
        if (body.capture === false && refusedHolds.has(shop))
          return new Forbidden('Two-stage payments are not enabled for this shop');
        const id = randomUUID();
        const payment: Payment = {
          id,
          status: 'pending',
          paid: false,
          amount: body.amount,
          description: body.description ?? '',
          confirmation: {
            type: 'redirect',
            confirmation_url: `${base}/pay/${id}`,
            return_url: body.confirmation.return_url,
          },
          metadata: body.metadata ?? {},
          created_at: new Date().toISOString(),
          capture: body.capture !== false,
        };
        payments.set(id, payment);
        receipts.push({ kind: 'payment', paymentId: id, receipt: body.receipt });
        log(`payment ${id}: ${body.amount.value} ${body.amount.currency}, ${payment.description}`);
        return payment;
      });
    }
    if (req.method === 'POST' && (m = path.match(/^\/payments\/([^/]+)\/(capture|cancel)$/))) {
      const action = m[2];
      return idempotent(req, res, path, { ...body, payment_id: decodeURIComponent(m[1]!) }, () => {
        const p = payments.get(decodeURIComponent(m![1]!));
        if (!p) return new Error('Payment not found');
        // As ЮKassa: a repeat of a decision already made answers the payment as it is.
        if (action === 'capture' && p.status === 'succeeded') return p;
        if (action === 'cancel' && p.status === 'canceled') return p;
        if (p.status !== 'waiting_for_capture') return new Error(`The payment is ${p.status}, not waiting_for_capture`);
        if (action === 'cancel') {
          p.status = 'canceled';
          log(`hold ${p.id} cancelled`);
          void notify('payment.canceled', p);
          return p;
        }
        const held = Math.round(Number(p.amount.value) * 100);
        const asked = body.amount?.value === undefined ? held : Math.round(Number(body.amount.value) * 100);
        if (!(asked > 0) || asked > held) return new Error('The amount to capture exceeds the amount held');
        if (asked < held && !body.receipt?.items?.length)
          return new Error('receipt is required when part of a payment is captured');
        if (body.receipt) receipts.push({ kind: 'capture', paymentId: p.id, receipt: body.receipt });
        p.status = 'succeeded';
        p.amount = body.amount ?? p.amount;
        p.expires_at = undefined;
        log(`hold ${p.id} captured: ${p.amount.value}`);
        void notify('payment.succeeded', p);
        return p;
      });
    }
    if (req.method === 'GET' && (m = path.match(/^\/payments\/([^/]+)$/))) {
      const p = payments.get(decodeURIComponent(m[1]!));
      return p ? json(res, 200, p) : error(res, 404, 'not_found', 'Payment not found');
    }
    if (req.method === 'POST' && path === '/refunds') {
      if (failingRefunds.has(body.payment_id)) {
        calls.push({
          path,
          key: String(req.headers['idempotence-key'] ?? ''),
          amount: body.amount?.value,
          paymentId: body.payment_id,
          error: 'down',
        });
        return error(res, 503, 'internal_server_error', 'Refunds of this payment are down on purpose');
      }
      return idempotent(req, res, path, body, () => {
        const p = payments.get(body.payment_id);
        if (!p || p.status !== 'succeeded') return new Error('Only a succeeded payment can be refunded');
        // As ЮKassa: the refunds of a payment, together, never exceed it.
        const before = [...refunds.values()]
          .filter((r) => r.payment_id === p.id)
          .reduce((sum, r) => sum + Math.round(Number(r.amount.value) * 100), 0);
        if (before + Math.round(Number(body.amount?.value) * 100) > Math.round(Number(p.amount.value) * 100))
          return new Error('Refund amount exceeds what is left of the payment');
        const refund: Refund = {
          id: randomUUID(),
          payment_id: p.id,
          status: 'succeeded',
          amount: body.amount,
          description: body.description ?? '',
          created_at: new Date().toISOString(),
        };
        refunds.set(refund.id, refund);
        receipts.push({ kind: 'refund', paymentId: p.id, receipt: body.receipt });
        log(`refund ${refund.id} of payment ${p.id}: ${body.amount.value}`);
        void notify('refund.succeeded', refund);
        return refund;
      });
    }
    if (req.method === 'GET' && (m = path.match(/^\/refunds\/([^/]+)$/))) {
      const r = refunds.get(decodeURIComponent(m[1]!));
      return r ? json(res, 200, r) : error(res, 404, 'not_found', 'Refund not found');
    }
    if (req.method === 'POST' && path === '/receipts') {
      return idempotent(req, res, path, body, () => {
        const id = randomUUID();
        receipts.push({
          kind: 'settlement',
          paymentId: body.payment_id,
          receipt: { customer: body.customer, items: body.items, settlements: body.settlements },
        });
        return { id, type: body.type, status: 'succeeded', payment_id: body.payment_id };
      });
    }
    return error(res, 404, 'not_found', 'No such method');
  }

  /** The guest's payment page, in Russian like ЮKassa's own. */
  function page(p: Payment) {
    const done = p.status !== 'pending';
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Оплата — ЮKassa (демо)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f3f4f8;margin:0;display:grid;place-items:center;min-height:100vh}main{background:#fff;border-radius:16px;padding:24px;max-width:360px;width:calc(100% - 32px);box-shadow:0 4px 24px #0001}h1{font-size:20px;margin:0 0 4px}.sum{font-size:32px;font-weight:700;margin:12px 0}button{display:block;width:100%;padding:14px;border:0;border-radius:10px;font-size:17px;margin-top:10px;cursor:pointer}.pay{background:#7d4cff;color:#fff}.cancel{background:#eceef3}</style></head>
<body><main><h1>ЮKassa · демо-оплата</h1><p>${escapeHtml(p.description)}</p><p class="sum">${escapeHtml(p.amount.value.replace('.', ','))} ₽</p>
${
  done
    ? `<p>Платёж уже ${p.status === 'succeeded' ? 'оплачен' : 'отменён'}.</p><p><a href="${escapeHtml(p.confirmation.return_url)}">Вернуться на сайт</a></p>`
    : `<form method="post" action="/pay/${p.id}/succeed"><button class="pay" type="submit">Оплатить</button></form>
<form method="post" action="/pay/${p.id}/cancel"><button class="cancel" type="submit">Отменить</button></form>`
}
<p style="color:#667;font-size:13px">Это тестовая страница: деньги не списываются.</p></main></body></html>`;
  }

  const server: Server = steadyServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    void (async () => {
      try {
        if (path.startsWith('/v3/')) return await api(req, res, path.slice(3));
        let m: RegExpMatchArray | null;
        if (req.method === 'GET' && (m = path.match(/^\/pay\/([^/]+)$/))) {
          const p = payments.get(m[1]!);
          if (!p) return error(res, 404, 'not_found', 'Payment not found');
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(page(p));
        }
        // The page's buttons (a redirect back to the shop) and the tests' own (JSON).
        if (req.method === 'POST' && (m = path.match(/^\/(pay|_payments)\/([^/]+)\/(succeed|cancel)$/))) {
          const p = payments.get(m[2]!);
          if (!p) return error(res, 404, 'not_found', 'Payment not found');
          if (settle(p, m[3] === 'succeed' ? 'succeeded' : 'canceled')) await notify(`payment.${p.status}`, p);
          if (m[1] === 'pay') {
            res.writeHead(303, { location: p.confirmation.return_url });
            return res.end();
          }
          return json(res, 200, p);
        }
        if (req.method === 'GET' && path === '/_log')
          return json(res, 200, { payments: [...payments.values()], refunds: [...refunds.values()], receipts, calls });
        if (req.method === 'POST' && path === '/_fail-refunds') {
          const body = (await readJson(req)) as { paymentId?: string; fail?: boolean };
          if (body.paymentId && body.fail === false) failingRefunds.delete(body.paymentId);
          else if (body.paymentId) failingRefunds.add(body.paymentId);
          return json(res, 200, { failing: [...failingRefunds] });
        }
        if (req.method === 'POST' && path === '/_holds') {
          const body = (await readJson(req)) as { shopId?: string; enabled?: boolean };
          const shop = body.shopId ?? shopId;
          if (body.enabled === false) refusedHolds.add(shop);
          else refusedHolds.delete(shop);
          return json(res, 200, { refused: [...refusedHolds] });
        }
        if (req.method === 'POST' && path === '/_outage') {
          const body = (await readJson(req)) as { down?: boolean; shopId?: string };
          const shop = body.shopId ?? shopId;
          if (body.down === true) downShops.add(shop);
          else downShops.delete(shop);
          return json(res, 200, { down: downShops.has(shop) });
        }
        if (req.method === 'POST' && path === '/_shops') {
          const body = (await readJson(req)) as { shopId?: string; secretKey?: string };
          if (!body.shopId || !body.secretKey)
            return error(res, 400, 'invalid_request', 'shopId and secretKey are required');
          shops.set(body.shopId, body.secretKey);
          return json(res, 200, { shopId: body.shopId });
        }
        return error(res, 404, 'not_found', 'Not found');
      } catch (err) {
        error(res, 500, 'internal_server_error', err instanceof Error ? err.message : String(err));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  base = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  state.apiUrl = `${base}/v3`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
