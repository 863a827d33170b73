// «Письма гостю» on a booking in «Заявки»: what went by itself and when, what failed and
// why (the mail server's words), and «Отправить ещё раз» for one that failed. Read when opened:
// the list of requests stays one request to the server.
import { useState } from 'react';
import { GUEST_MESSAGE_LABELS, type GuestMessageKind } from '../../../schema/guest-page.ts';
import { call, client, describeError } from '../client.ts';
import { useNotify } from '../ui/Notice.tsx';
import { receivedAt } from './BookingRow.tsx';

type Message = Awaited<ReturnType<typeof loadMessages>>[number];
const loadMessages = (id: number) => call(client().admin.bookings[':id'].messages.$get({ param: { id: String(id) } }));

/** One message's state in the owner's words. */
function stateText(m: Message): string {
  if (m.sentAt) return `отправлено ${receivedAt(m.sentAt)}`;
  if (m.givenUpAt) return `не отправлено${m.lastError ? `: ${m.lastError}` : ''}`;
  if (m.lastError)
    return `не отправлено (${m.lastError}); попробуем ещё раз${m.nextAttemptAt ? ` в ${receivedAt(m.nextAttemptAt)}` : ''}`;
  return 'отправляется';
}

export function BookingMessages({ bookingId }: { bookingId: number }) {
  const [list, setList] = useState<Message[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const notify = useNotify();

  async function read() {
    try {
      setError('');
      setList(await loadMessages(bookingId));
    } catch (err) {
      setError(describeError(err, 'Не удалось загрузить письма'));
    }
  }
  async function retry(kind: GuestMessageKind) {
    setBusy(kind);
    try {
      await call(
        client().admin.bookings[':id'].messages[':kind'].retry.$post({ param: { id: String(bookingId), kind } }),
      );
      notify.success('Письмо отправлено ещё раз');
    } catch (err) {
      notify.error(describeError(err, 'Не удалось отправить письмо'));
    } finally {
      setBusy(null);
      await read();
    }
  }

  return (
    <details
      className="reply__text"
      onToggle={(e) => (e.currentTarget.open && list === null ? void read() : undefined)}
    >
      <summary>Письма гостю</summary>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      {list === null && !error ? (
        <p className="hint" role="status">
          Загружаем…
        </p>
      ) : null}
      {list && list.length === 0 ? (
        <p className="hint">Писем пока не было: они уходят, если гость оставил e-mail.</p>
      ) : null}
      {list && list.length > 0 ? (
        <ul className="booking-messages">
          {list.map((m) => (
            <li key={m.kind} className={m.sentAt ? '' : 'booking-messages__failed'}>
              <b>{GUEST_MESSAGE_LABELS[m.kind as GuestMessageKind] ?? m.kind}</b> на {m.recipient}: {stateText(m)}
              {!m.sentAt && m.lastError ? (
                <>
                  {' '}
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    disabled={busy === m.kind}
                    onClick={() => void retry(m.kind as GuestMessageKind)}
                  >
                    Отправить ещё раз
                    <span className="visually-hidden">
                      : {GUEST_MESSAGE_LABELS[m.kind as GuestMessageKind] ?? m.kind}
                    </span>
                  </button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
