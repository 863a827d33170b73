// SMS.ru's HTTP API (sms.ru/api): every method is a POST of a form with the account's api_id and
// json=1, answered with `{ status: 'OK' | 'ERROR', status_code, status_text?, … }`. The address
// is SMS_API_URL (a stand-in in tests and under `npm start`), else https://sms.ru.
import { MSG } from '../../schema/messages.ts';
import {
  SMS_API_DEFAULT,
  SMS_TIMEOUT_MS,
  smsRuBalance,
  smsRuBase,
  smsRuPerPhone,
  smsRuSenders,
} from '../../schema/sms.ts';

type SmsEnv = { SMS_API_URL?: string };

/**
 * What went wrong, sorted by what the owner and the outbox do about it:
 * - `key`: the account refused its key (200, 300–302): the owner pastes it again;
 * - `money`: not enough money on the account (201): the owner tops it up, the message waits;
 * - `recipient`: this number can take no SMS (202, 207): the message is given up;
 * - `sender`: the sender's name is not approved (204);
 * - `unavailable`: no answer, an HTTP error or the gateway's own trouble (220): tried again;
 * - `refused`: any other refusal.
 * `uncertain` says the request may have been done though no answer came (a timeout after the
 * request went): a send then counts as charged.
 */
export type SmsFailure = 'key' | 'money' | 'recipient' | 'sender' | 'unavailable' | 'refused';

export class SmsApiError extends Error {
  readonly failure: SmsFailure;
  readonly code: number | undefined;
  readonly uncertain: boolean;
  constructor(failure: SmsFailure, message: string, code?: number, uncertain = false) {
    super(message);
    this.name = 'SmsApiError';
    this.failure = failure;
    this.code = code;
    this.uncertain = uncertain;
  }

  /** The cause in words for the owner («Настройки»). */
  get forOwner(): string {
    switch (this.failure) {
      case 'key':
        return MSG.smsKeyRejected;
      case 'money':
        return MSG.smsNoMoney;
      case 'recipient':
        return MSG.smsRecipientRefused;
      case 'sender':
        return MSG.smsSenderNotAllowed;
      case 'unavailable':
        return MSG.smsUnavailable;
      default:
        return `SMS.ru отказал: ${this.message}`;
    }
  }
}

function failureOf(code: number | undefined): SmsFailure {
  if (code === 200 || code === 300 || code === 301 || code === 302) return 'key';
  if (code === 201) return 'money';
  if (code === 202 || code === 207) return 'recipient';
  if (code === 204) return 'sender';
  if (code === 220 || code === 500) return 'unavailable';
  return 'refused';
}

const refusal = (body: { status_code?: number; status_text?: string }) =>
  new SmsApiError(
    failureOf(body.status_code),
    `SMS.ru ${body.status_code ?? '?'}: ${body.status_text ?? 'ERROR'}`,
    body.status_code,
  );

/** One call: the form, the answer's JSON, an error on anything but `status: 'OK'`. */
async function call(env: SmsEnv, method: string, key: string, params: Record<string, string> = {}): Promise<unknown> {
  const base = (env.SMS_API_URL || SMS_API_DEFAULT).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_id: key, ...params, json: '1' }),
      signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
    });
  } catch (err) {
    // A send that timed out may have gone; a refused connection never reached the gateway.
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new SmsApiError(
      'unavailable',
      `SMS.ru ${method}: ${err instanceof Error ? err.message : String(err)}`,
      undefined,
      timedOut,
    );
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new SmsApiError('unavailable', `SMS.ru ${method}: HTTP ${res.status} ${text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SmsApiError('unavailable', `SMS.ru ${method}: not JSON: ${text.slice(0, 200)}`);
  }
  const base0 = smsRuBase.safeParse(json);
  if (!base0.success) throw new SmsApiError('unavailable', `SMS.ru ${method}: unexpected answer`);
  if (base0.data.status !== 'OK') throw refusal(base0.data);
  return json;
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, json: unknown) {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SmsApiError('unavailable', 'SMS.ru: unexpected answer');
  return parsed.data;
}

/** The account's balance, in roubles (`my/balance`); also how a key is checked. */
export async function smsBalance(env: SmsEnv, key: string): Promise<number> {
  return parse(smsRuBalance, await call(env, 'my/balance', key)).balance;
}

/** The sender names the account may send from (`my/senders`). */
export async function smsSenders(env: SmsEnv, key: string): Promise<string[]> {
  return parse(smsRuSenders, await call(env, 'my/senders', key)).senders;
}

const onePhone = (json: unknown, to: string) => {
  const body = parse(smsRuPerPhone, json);
  const one = body.sms[to] ?? Object.values(body.sms)[0];
  if (!one) throw new SmsApiError('unavailable', 'SMS.ru: no answer for the number');
  if (one.status !== 'OK') throw refusal(one);
  return { one, body };
};

/** What one message to `to` would cost, in kopecks, and in how many parts (`sms/cost`). */
export async function smsCost(
  env: SmsEnv,
  key: string,
  to: string,
  msg: string,
): Promise<{ kop: number; parts: number }> {
  const { one, body } = onePhone(await call(env, 'sms/cost', key, { to, msg }), to);
  const rub = one.cost ?? body.total_cost;
  if (rub === undefined) throw new SmsApiError('unavailable', 'SMS.ru sms/cost: no price');
  return { kop: Math.round(rub * 100), parts: one.sms ?? body.total_sms ?? 1 };
}

/** Sends one message (`sms/send`): the gateway's id, the price it charged (kopecks) if it said, the balance after. */
export async function smsSend(
  env: SmsEnv,
  key: string,
  to: string,
  msg: string,
  from?: string,
): Promise<{ smsId: string | null; costKop: number | null; balanceRub: number | null }> {
  const { one, body } = onePhone(await call(env, 'sms/send', key, { to, msg, ...(from ? { from } : {}) }), to);
  return {
    smsId: one.sms_id ?? null,
    costKop: one.cost === undefined ? null : Math.round(one.cost * 100),
    balanceRub: body.balance ?? null,
  };
}
