// The deposit of a booking in «Заявки»: where it stands, and while it is held on the guest's card
// (or paid and not yet given back) the owner's two decisions, «Вернуть залог» and «Удержать …» (a
// part, with the reason the guest will read). The server decides once: a second tap, the other
// button or the schedule's own return get its refusal, shown here.
import { useState } from 'react';
import { DEPOSIT_REASON_MAX, depositKeepSchema, type DepositView } from '../../../schema/deposits.ts';
import { formatPrice } from '../../../schema/format.ts';
import { call, client, describeError } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { useConfirm } from '../ui/Confirm.tsx';
import { useNotify } from '../ui/Notice.tsx';

export function DepositActions({
  bookingId,
  deposit: initial,
  owner,
}: {
  bookingId: number;
  deposit: DepositView;
  owner: boolean;
}) {
  const [deposit, setDeposit] = useState(initial);
  const [keeping, setKeeping] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const confirm = useConfirm();
  const param = { id: String(bookingId) };

  async function release() {
    const ok = await confirm({
      title: 'Вернуть залог?',
      text:
        deposit.mode === 'paid'
          ? `${formatPrice(deposit.amount)} вернутся гостю на карту целиком (возврат через ЮKassa).`
          : `Блокировка ${formatPrice(deposit.amount)} на карте гостя будет снята целиком.`,
      confirmLabel: 'Вернуть залог',
    });
    if (!ok) return;
    setBusy(true);
    try {
      const { deposit: next } = await call(client().admin.bookings[':id'].deposit.release.$post({ param }));
      setDeposit(next);
      if (next.error) notify.error(next.error);
      else notify.success('Залог возвращается гостю');
    } catch (err) {
      notify.error(describeError(err, 'Не удалось вернуть залог'));
    } finally {
      setBusy(false);
    }
  }

  async function keep(e: React.FormEvent) {
    e.preventDefault();
    const parsed = depositKeepSchema.safeParse({ amount: Number(amount.replace(/\s/g, '')), reason });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const i of parsed.error.issues) next[i.path[0] as 'amount' | 'reason'] ??= i.message;
      return setErrors(next);
    }
    setBusy(true);
    try {
      const { deposit: next } = await call(
        client().admin.bookings[':id'].deposit.keep.$post({ param, json: parsed.data }),
      );
      setDeposit(next);
      setKeeping(false);
      if (next.error) notify.error(next.error);
      else if (parsed.data.amount >= deposit.amount)
        notify.success(`Залог удержан целиком: ${formatPrice(deposit.amount)}`);
      else notify.success(`Удержано ${formatPrice(parsed.data.amount)}, остальное вернётся гостю`);
    } catch (err) {
      // The reason and the amount stay in the form: nothing typed is lost.
      setErrors({ amount: describeError(err, 'Не удалось удержать часть залога') });
    } finally {
      setBusy(false);
    }
  }

  const held = deposit.state === 'held';
  return (
    <div className="booking-item__deposit">
      <p className="booking-item__payment">
        {deposit.label}: {formatPrice(deposit.amount)}
        {deposit.kept !== null && <>, удержано {formatPrice(deposit.kept)}</>}
        {deposit.reason && <> ({deposit.reason})</>}
      </p>
      {deposit.error && <p className="error-text">{deposit.error}</p>}
      {held && owner && !keeping && (
        <div className="booking-item__actions">
          <button type="button" className="btn btn--sm btn--secondary" disabled={busy} onClick={() => void release()}>
            Вернуть залог<span className="visually-hidden"> по заявке №{bookingId}</span>
          </button>
          <button type="button" className="btn btn--sm btn--secondary" disabled={busy} onClick={() => setKeeping(true)}>
            Удержать …<span className="visually-hidden"> из залога по заявке №{bookingId}</span>
          </button>
        </div>
      )}
      {held && owner && keeping && (
        <form className="deposit-keep" onSubmit={(e) => void keep(e)} noValidate>
          <Field
            label={`Сколько удержать, ₽ (не больше ${formatPrice(deposit.amount)})`}
            error={errors.amount}
            required
          >
            {(p) => (
              <input
                {...p}
                className="input"
                inputMode="numeric"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setErrors((x) => ({ ...x, amount: undefined }));
                }}
              />
            )}
          </Field>
          <Field label="Причина (её увидит гость)" error={errors.reason} required>
            {(p) => (
              <textarea
                {...p}
                className="input"
                rows={2}
                maxLength={DEPOSIT_REASON_MAX}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setErrors((x) => ({ ...x, reason: undefined }));
                }}
              />
            )}
          </Field>
          <div className="booking-item__actions">
            <button type="submit" className="btn btn--sm btn--primary" disabled={busy}>
              {busy ? 'Удерживаем…' : 'Удержать'}
            </button>
            <button
              type="button"
              className="btn btn--sm btn--secondary"
              disabled={busy}
              onClick={() => setKeeping(false)}
            >
              Отмена
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
