// The mail API stand-in (stand-ins/mail-api.ts) that the projects' global setup starts: the app's
// mailer pointed at it, and what it accepted for one address.
import { inject } from 'vitest';
import type { StandInMail } from '../../stand-ins/mail-api.ts';
import { mailApiMailer } from '../../worker/platform/mail-api.ts';

export const mailApi = inject('mailApiUrl');

/**
 * The mailer of a server whose mail goes through the stand-in; `owner: false` for one that sends
 * the guests' mail only (no MAIL_TO), so the owner's alerts by e-mail are not tried at all.
 */
export const standInMailer = ({ owner = true }: { owner?: boolean } = {}) =>
  mailApiMailer({
    MAIL_API_KEY: 'test-mail-key',
    MAIL_FROM: 'Каспий <site@kaspiy.example>',
    ...(owner ? { MAIL_TO: 'owner@kaspiy.example' } : {}),
    MAIL_API_URL: `${mailApi}/emails`,
  });

/** The mails the stand-in accepted for one address; `get` is the fetch to ask it with. */
export const mailsTo = async (to: string, get: (url: string) => Promise<Response> = fetch) =>
  ((await (await get(`${mailApi}/_stand-in/mails`)).json()) as StandInMail[]).filter((m) => m.to.includes(to));
