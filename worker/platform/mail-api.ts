import type { MailerPort } from './ports.ts';

/** Resend's send endpoint; any API taking the same JSON with a Bearer key works (MAIL_API_URL). */
export const DEFAULT_MAIL_API_URL = 'https://api.resend.com/emails';
/** One call waits this long at most: a hung API must not hold a confirmation or a schedule run. */
export const MAIL_API_TIMEOUT_MS = 10_000;

/** The secrets that set it (README «Configuration»). */
export type MailApiEnv = { MAIL_API_KEY?: string; MAIL_FROM?: string; MAIL_TO?: string; MAIL_API_URL?: string };

/**
 * E-mail through an HTTP mail API (Resend by default): plain fetch, so it works on Workers, which
 * cannot speak SMTP, and on the Node server when SMTP_URL is not set. Absent without MAIL_API_KEY.
 * MAIL_TO is the owner's address; without it the port sends only to guests (`reachesOwner: false`).
 * A send that the API does not accept throws with its status and the start of its answer.
 */
export function mailApiMailer(env: MailApiEnv, opts: { timeoutMs?: number } = {}): MailerPort | undefined {
  const apiKey = env.MAIL_API_KEY?.trim();
  if (!apiKey) return undefined;
  const url = env.MAIL_API_URL?.trim() || DEFAULT_MAIL_API_URL;
  const from = env.MAIL_FROM?.trim() ?? '';
  const owner = env.MAIL_TO?.trim() ?? '';
  return {
    reachesOwner: owner !== '',
    async send({ subject, text, to, key }) {
      // Said in the error, so it shows in the outbox and in a booking's messages, not lost in a log.
      if (!from) throw new Error('MAIL_FROM is not set: the mail API needs the sender address');
      const recipient = to || owner;
      if (!recipient) throw new Error('MAIL_TO is not set: no owner address to send to');
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify({ from, to: [recipient], subject, text }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? MAIL_API_TIMEOUT_MS),
      });
      const body = await res.text().catch(() => '');
      if (!res.ok) throw new Error(`Mail API answered ${res.status}: ${body.slice(0, 200)}`);
    },
  };
}
