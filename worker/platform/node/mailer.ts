import nodemailer from 'nodemailer';
import { mailApiMailer, type MailApiEnv } from '../mail-api.ts';
import type { MailerPort } from '../ports.ts';

/**
 * The e-mail port of the self-hosted server: SMTP_URL such as
 * smtps://user:password@smtp.yandex.ru:465/?from=site@example.ru&to=owner@example.ru
 * (`from` defaults to the SMTP user, `to` to `from`). `to` is the owner; a message may name
 * another recipient (the messages to a guest).
 */
export function smtpMailer(smtpUrl: string): MailerPort {
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from') || decodeURIComponent(url.username);
  const to = url.searchParams.get('to') || from;
  if (!from || !to) throw new Error('SMTP_URL needs a user or ?from=…&to=… (who sends, who receives)');
  url.searchParams.delete('from');
  url.searchParams.delete('to');
  const transport = nodemailer.createTransport(url.href);
  return {
    async send({ subject, text, to: recipient, key }) {
      // One Message-ID for every try of the same message: a try again after a lost answer shows once.
      const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
      await transport.sendMail({
        from,
        to: recipient || to,
        subject,
        text,
        ...(key ? { messageId: `<${key}@${domain}>` } : {}),
      });
    },
  };
}

/**
 * The self-hosted server's e-mail: SMTP when SMTP_URL is set, else the HTTP mail API when
 * MAIL_API_KEY is (a provider that offers only an API), else none. Throws on an unusable SMTP_URL.
 */
export function nodeMailer(env: MailApiEnv & { SMTP_URL?: string }): MailerPort | undefined {
  return env.SMTP_URL ? smtpMailer(env.SMTP_URL) : mailApiMailer(env);
}
