import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../worker/env.ts';
import { drainOutbox } from '../../worker/notify/drain.ts';
import { attempt } from '../../worker/notify/guest.ts';
import { enqueueGuestMessage } from '../../worker/queries/outbox.ts';
import { callWith, jsonOf, resetDataWithAdmin, seedCabin, validBooking } from './helpers.ts';
import { mailApi, mailsTo, standInMailer } from './mail-stand-in.ts';

/**
 * A message whose send reached the mail API but whose answer never came back (the sender stopped
 * waiting first) is tried again by the schedule under the same name, so the API sends it once: the
 * guest gets one «Оплата возвращена», not two.
 */
const EXTRA: Partial<Bindings> = {
  MAILER: standInMailer({ owner: false }),
  SITE_URL: 'https://kaspiy.example',
};
const call = callWith(EXTRA);

beforeEach(resetDataWithAdmin);

describe('a message whose answer was lost', () => {
  it('should reach the guest once when the schedule tries it again after the mail API took it but answered too late', async () => {
    const email = `lost-answer-${crypto.randomUUID()}@guest.example`;
    const cabin = await seedCabin();
    const booking = await jsonOf<{ id: number }>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { email }) }),
      201,
    );
    await fetch(`${mailApi}/_stand-in/slow`, { method: 'POST', body: JSON.stringify({ to: email, ms: 1_500 }) });
    const message = { to: email, subject: 'Оплата возвращена', text: 'Вернули 3 000 ₽.' };
    const kept = await enqueueGuestMessage(
      env,
      { bookingId: booking.id, kind: 'refund', recipient: email, subject: message.subject, text: message.text },
      60_000,
    );
    const bindings = { ...env, ...EXTRA } as Bindings;
    const row = { id: kept!.id, attempts: 0, createdAt: Date.now(), bookingId: booking.id, kind: 'refund' as const };
    // The first try gives up waiting after 200 ms; the mail API has the message already.
    expect(await attempt(bindings, EXTRA.MAILER!, row, message, 200)).toBe(false);
    await expect.poll(() => mailsTo(email).then((m) => m.length)).toBe(1);
    // The schedule's run once the try is due again: sent, by the API's answer to the same key.
    await env.DB.prepare('UPDATE outbox SET next_attempt_at = 0, lease_until = NULL WHERE id = ?').bind(row.id).run();
    expect(await drainOutbox(bindings)).toMatchObject({ sent: 1, failed: 0 });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(['Оплата возвращена']);
    expect(mails[0]!.idempotencyKey).toMatch(new RegExp(`^kaspiy\\.example/outbox/${row.id}/[0-9a-f]{16}$`));
    const sent = await env.DB.prepare('SELECT sent_at FROM outbox WHERE id = ?')
      .bind(row.id)
      .first<{ sent_at: number | null }>();
    expect(sent?.sent_at).not.toBeNull();
  });
});
