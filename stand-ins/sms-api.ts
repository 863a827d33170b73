import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { smsSegments } from '../schema/sms.ts';
import { steadyServer } from './steady-server.ts';

/**
 * A stand-in for SMS.ru's HTTP API on 127.0.0.1 (SMS_API_URL of the app under test). Each method
 * takes `api_id` and `json=1` as a form (POST) or in the query (GET), as sms.ru/api does, and
 * answers SMS.ru's JSON: `{ status: 'OK', status_code: 100, … }` or
 * `{ status: 'ERROR', status_code, status_text }`.
 *
 * - Any `api_id` of 8 or more letters, digits or dashes is an account with 100 ₽ on it, sender
 *   names `Kaspiy` and `SMS.ru`; one containing `rejected` is refused (status_code 200, «Неправильный
 *   api_id»), as SMS.ru refuses a key it does not know. A request without `json=1` is refused.
 * - `my/balance` → `{ balance }`; `my/senders` → `{ senders }`.
 * - `sms/cost` (`to`, `msg`) → `{ sms: { <to>: { status, status_code, cost, sms } }, total_cost,
 *   total_sms }`, 1.50 ₽ a part, counting parts as SMS.ru does (70 Cyrillic characters in one
 *   message, 67 a part).
 * - `sms/send` (`to`, `msg`, optional `from`) → `{ sms: { <to>: { status, status_code, sms_id,
 *   cost, sms } }, balance }`, the price taken from the balance; a `from` the account may not use is
 *   refused for that number (204), a number that is not 11–15 digits too (202); with too little
 *   money the whole request is refused (201, «Не хватает средств на лицевом счету»).
 *
 * Tests in another process drive it over HTTP, each with an api_id of its own:
 * - `GET /_stand-in/sent?api_id=…`: every message sent, in order (`{ to, msg, from, parts }`);
 * - `GET /_stand-in/requests?api_id=…`: every request, with its method and fields;
 * - `POST /_stand-in/account` `{ api_id, balance?, fail?, delayMs? }`: sets the account's balance,
 *   makes its next `fail` requests answer HTTP 503, or each answer wait `delayMs`.
 */
export type SmsSent = { to: string; msg: string; from: string | null; parts: number; smsId: string };
export type SmsRequest = { method: string; fields: Record<string, string> };

/** What a part costs on the stand-in, in roubles. */
export const STAND_IN_SMS_PRICE = 1.5;
export const STAND_IN_SMS_SENDERS = ['Kaspiy', 'SMS.ru'] as const;

type Account = { balance: number; fail: number; delayMs: number; sent: SmsSent[]; requests: SmsRequest[] };

export async function startSmsStandIn(opts: { port?: number; log?: (line: string) => void } = {}) {
  const accounts = new Map<string, Account>();
  let ids = 0;
  const accountOf = (key: string): Account => {
    let a = accounts.get(key);
    if (!a) {
      a = { balance: 100, fail: 0, delayMs: 0, sent: [], requests: [] };
      accounts.set(key, a);
    }
    return a;
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  const error = (res: ServerResponse, code: number, text: string) =>
    json(res, 200, { status: 'ERROR', status_code: code, status_text: text });
  const money = (n: number) => Math.round(n * 100) / 100;

  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        if (url.pathname === '/_stand-in/sent')
          return json(res, 200, accountOf(url.searchParams.get('api_id') ?? '').sent);
        if (url.pathname === '/_stand-in/requests')
          return json(res, 200, accountOf(url.searchParams.get('api_id') ?? '').requests);
        if (url.pathname === '/_stand-in/account' && req.method === 'POST') {
          let body: { api_id?: string; balance?: number; fail?: number; delayMs?: number };
          try {
            body = JSON.parse(raw) as typeof body;
          } catch {
            return json(res, 400, { error: 'JSON expected' });
          }
          const a = accountOf(String(body.api_id ?? ''));
          if (typeof body.balance === 'number') a.balance = body.balance;
          if (typeof body.fail === 'number') a.fail = body.fail;
          if (typeof body.delayMs === 'number') a.delayMs = body.delayMs;
          return json(res, 200, { balance: a.balance, fail: a.fail, delayMs: a.delayMs });
        }
        const fields: Record<string, string> = Object.fromEntries(url.searchParams);
        if (req.method === 'POST') for (const [k, v] of new URLSearchParams(raw)) fields[k] = v;
        const method = url.pathname.replace(/^\/+/, '');
        const key = fields.api_id ?? '';
        if (!/^[A-Za-z0-9_:-]{8,}$/.test(key) || key.includes('rejected'))
          return error(res, 200, 'Неправильный api_id');
        const a = accountOf(key);
        a.requests.push({ method, fields });
        if (a.delayMs > 0) await new Promise((r) => setTimeout(r, a.delayMs));
        if (a.fail > 0) {
          a.fail--;
          return res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503 Service Unavailable</h1>');
        }
        if (fields.json !== '1') return res.writeHead(200, { 'content-type': 'text/plain' }).end('100\n');
        const ok = (body: Record<string, unknown>) => json(res, 200, { status: 'OK', status_code: 100, ...body });
        if (method === 'my/balance') return ok({ balance: money(a.balance) });
        if (method === 'my/senders') return ok({ senders: [...STAND_IN_SMS_SENDERS] });
        if (method !== 'sms/cost' && method !== 'sms/send')
          return error(res, 210, 'Используется GET, где необходимо использовать POST');
        const to = fields.to ?? '';
        const msg = fields.msg ?? '';
        if (!msg) return error(res, 203, 'Нет текста сообщения');
        const parts = smsSegments(msg).parts;
        const cost = money(parts * STAND_IN_SMS_PRICE);
        const badNumber = !/^\d{11,15}$/.test(to);
        if (method === 'sms/cost')
          return ok({
            sms: {
              [to]: badNumber
                ? { status: 'ERROR', status_code: 202, status_text: 'Неправильно указан номер телефона получателя' }
                : { status: 'OK', status_code: 100, cost, sms: parts },
            },
            total_cost: badNumber ? 0 : cost,
            total_sms: badNumber ? 0 : parts,
          });
        if (a.balance < cost) return error(res, 201, 'Не хватает средств на лицевом счету');
        const from = fields.from ?? null;
        if (badNumber || (from !== null && !(STAND_IN_SMS_SENDERS as readonly string[]).includes(from)))
          return ok({
            sms: {
              [to]: badNumber
                ? { status: 'ERROR', status_code: 202, status_text: 'Неправильно указан номер телефона получателя' }
                : { status: 'ERROR', status_code: 204, status_text: 'Имя отправителя не согласовано с администрацией' },
            },
            balance: money(a.balance),
          });
        a.balance = money(a.balance - cost);
        const smsId = `000000-${String(++ids).padStart(6, '0')}`;
        a.sent.push({ to, msg, from, parts, smsId });
        opts.log?.(`SMS на ${to} (${parts} ч.): ${msg}`);
        return ok({
          sms: { [to]: { status: 'OK', status_code: 100, sms_id: smsId, cost, sms: parts } },
          balance: money(a.balance),
        });
      })();
    });
  });
  server.listen(opts.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
