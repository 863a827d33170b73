// «Аккаунт» → «Сеансы»: where the person is signed in (the device in plain words, the
// address, when last seen in Moscow time), each one ended with a tap, or all but this one.
import { useState } from 'react';
import type { SessionView } from '../../../schema/account.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useBusyAction, useFailure } from '../ui/useFailure.ts';
import { deviceName, moscowMoment } from './device.ts';

/** Ends one session (the person's own, or for the owner anyone's); answers whether it did. */
export function useEndSession(onEnded: () => Promise<void>) {
  const [busy, setBusy] = useState<number | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const end = async (s: SessionView, whose?: string) => {
    setBusy(s.id);
    try {
      await call(client().admin.sessions[':id'].$delete({ param: { id: String(s.id) } }));
      notify.success(
        whose ? `Сеанс ${whose} завершён: ${deviceName(s.userAgent)}` : `Сеанс завершён: ${deviceName(s.userAgent)}`,
      );
      await onEnded();
    } catch (err) {
      failed(err, 'Не удалось завершить сеанс');
    } finally {
      setBusy(null);
    }
  };
  return { busy, end };
}

/** One signed-in device: what and where, when last seen; «Завершить» unless it is this one. */
export function SessionRow({ session: s, busy, onEnd }: { session: SessionView; busy: boolean; onEnd?: () => void }) {
  const device = deviceName(s.userAgent);
  return (
    <li className={`session${s.current ? ' session--current' : ''}`}>
      <div className="session__text">
        <p className="session__device">
          {device}
          {s.current && <span className="badge badge--success">этот</span>}
        </p>
        <p className="session__meta">
          {s.ip ? `Адрес ${s.ip}` : 'Адрес неизвестен'} · был(а) в сети {moscowMoment(s.lastSeenAt)}
        </p>
        <p className="session__meta">Вход {moscowMoment(s.createdAt)}</p>
      </div>
      {!s.current && onEnd && (
        <button type="button" className="btn btn--secondary" disabled={busy} aria-busy={busy} onClick={onEnd}>
          Завершить
          <span className="visually-hidden">
            {' '}
            сеанс {s.username}: {device}, {s.ip}
          </span>
        </button>
      )}
    </li>
  );
}

/** The person's own sessions, with «Завершить все другие». */
export function Sessions({ sessions, onChanged }: { sessions: SessionView[]; onChanged: () => Promise<void> }) {
  const { busy, end } = useEndSession(onChanged);
  const [ending, run] = useBusyAction();
  const confirm = useConfirm();
  const notify = useNotify();
  const others = sessions.filter((s) => !s.current).length;

  async function endOthers() {
    const ok = await confirm({
      title: 'Завершить все другие сеансы?',
      text: 'На других телефонах и компьютерах панель попросит войти снова. Этот сеанс останется.',
      confirmLabel: 'Завершить все другие',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      const { ended } = await call(client().admin.sessions.$delete());
      notify.success(ended > 0 ? `Завершено сеансов: ${ended}` : 'Других сеансов не было');
      await onChanged();
    }, 'Не удалось завершить сеансы');
  }

  return (
    <section className="group sessions" aria-labelledby="sessions-title">
      <h3 className="group__title" id="sessions-title">
        Где вы вошли
      </h3>
      <p className="hint">Незнакомое устройство или адрес? Завершите этот сеанс и смените пароль.</p>
      <ul className="session-list">
        {sessions.map((s) => (
          <SessionRow key={s.id} session={s} busy={busy === s.id} onEnd={() => void end(s)} />
        ))}
      </ul>
      {others > 0 && (
        <button
          type="button"
          className="btn btn--danger"
          disabled={ending}
          aria-busy={ending}
          onClick={() => void endOthers()}
        >
          Завершить все другие
        </button>
      )}
    </section>
  );
}
