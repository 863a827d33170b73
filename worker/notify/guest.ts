import { confirmationSubject, guestMessage } from '../../schema/guest-message.ts';
import type { Booking } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getSettings } from '../queries/settings.ts';

/** Whether the guest's confirmation went: '' when none was tried (no e-mail left, no SMTP). */
export type ConfirmationMail = '' | 'sent' | 'failed';

/** How long the owner's «Подтвердить» waits for the mail server before saying «не отправлено». */
export const CONFIRMATION_MAIL_TIMEOUT_MS = 15_000;

/**
 * E-mails the guest the confirmation the owner would send by messenger (issue 15, point 5),
 * where the server has SMTP (the MAILER port) and the guest left an address. One attempt,
 * bounded in time: the owner sees at once whether it went and can write by hand if not. Never
 * throws: the booking is confirmed whatever the mail server does.
 */
export async function mailConfirmation(env: Bindings, booking: Booking, cabinName: string, timeoutMs = CONFIRMATION_MAIL_TIMEOUT_MS): Promise<ConfirmationMail> {
  const mailer = env.MAILER;
  if (!mailer || !booking.email) return '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const settings = await getSettings(env);
    const sending = mailer.send({ to: booking.email, subject: confirmationSubject(booking.id, settings.siteName), text: guestMessage({ ...booking, cabinName }, settings) });
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)));
    await Promise.race([sending, late]);
    return 'sent';
  } catch (err) {
    console.error(`The confirmation e-mail of booking ${booking.id} failed:`, err instanceof Error ? err.message : err);
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}
