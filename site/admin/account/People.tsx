// «Аккаунт» → «Люди» (the owner's alone): who may sign in, with what role, whether they
// sign in with a code and where they are signed in now. The owner adds a manager with a password
// of their own, or a cleaner with the cabins they clean and a private sign-in link instead of a
// password; ends a session left open on a lost phone, and removes someone who left.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ROLE_LABELS, userCreateSchema, type Role, type SessionView, type UserView } from '../../../schema/account.ts';
import { formatDate } from '../../../schema/format.ts';
import { MSG } from '../../../schema/messages.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Field, fieldErrors, focusFirstInvalid, type FieldErrors } from '../ui/Field.tsx';
import { PasswordInput } from '../ui/Inputs.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useMe } from '../ui/role.tsx';
import { useFailure } from '../ui/useFailure.ts';
import { useCopy } from '../calendar/CalendarExport.tsx';
import { SessionRow, useEndSession } from './Sessions.tsx';

type CabinName = { id: number; name: string };

const ROLE_HINTS: Record<Role, string> = {
  manager: 'заявки, шахматка, календарь, цены, домики и отзывы; без оплаты, площадок, людей и журнала',
  owner: 'всё, включая оплату, площадки, людей и журнал',
  cleaner: 'только уборки своих домиков в «Сегодня», без гостей и денег; входит по ссылке, без пароля',
};

export function People({
  users,
  sessions,
  onChanged,
}: {
  users: UserView[];
  sessions: SessionView[];
  onChanged: () => Promise<void>;
}) {
  const me = useMe();
  const { busy, end } = useEndSession(onChanged);
  const [removing, setRemoving] = useState<number | null>(null);
  const confirm = useConfirm();
  const notify = useNotify();
  const failed = useFailure();
  const [cabins, setCabins] = useState<CabinName[]>([]);
  useEffect(() => {
    let alive = true;
    call(client().admin.cabins.$get())
      .then((list) => alive && setCabins(list.map((c) => ({ id: c.id, name: c.name }))))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  const cabinName = (id: number) => cabins.find((c) => c.id === id)?.name ?? `Домик №${id}`;

  async function remove(u: UserView) {
    const ok = await confirm({
      title: `Удалить «${u.username}»?`,
      text: `${ROLE_LABELS[u.role]} «${u.username}» больше не сможет войти в панель, его сеансы завершатся сразу. Его изменения останутся в «Журнале».`,
      confirmLabel: 'Удалить',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    setRemoving(u.id);
    try {
      await call(client().admin.users[':id'].$delete({ param: { id: String(u.id) } }));
      notify.success(`«${u.username}» удалён`);
      await onChanged();
    } catch (err) {
      failed(err, 'Не удалось удалить пользователя');
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section className="group people" aria-labelledby="people-title">
      <h3 className="group__title" id="people-title">
        Люди
      </h3>
      <p className="hint">
        Менеджер входит со своим логином и паролем и видит заявки, шахматку, календарь и отзывы, но не меняет оплату,
        площадки и доступы. Уборщик входит по личной ссылке и видит только уборки своих домиков. Кто что менял — во
        вкладке «Журнал».
      </p>
      <ul className="people-list">
        {users.map((u) => {
          const own = sessions.filter((s) => s.username === u.username);
          const self = u.username === me.username;
          return (
            <li key={u.id} className="person">
              <div className="person__head">
                <p className="person__name">
                  {u.username}
                  {self && <span className="visually-hidden"> (вы)</span>}
                </p>
                <span className={`badge${u.role === 'owner' ? '' : ' badge--success'}`}>{ROLE_LABELS[u.role]}</span>
                {self && <span className="badge">вы</span>}
              </div>
              <p className="person__meta">
                {u.role === 'cleaner' ? 'Входит по ссылке' : u.twoFactor ? 'Входит с кодом' : 'Входит только по паролю'}{' '}
                · добавлен(а) {formatDate(u.createdAt)}
              </p>
              {u.role === 'cleaner' && (
                <>
                  <p className="person__meta">Домики: {u.cabinIds.map(cabinName).join(', ') || 'нет'}</p>
                  <SignInLink user={u} onChanged={onChanged} />
                </>
              )}
              {!self &&
                (own.length > 0 ? (
                  <ul className="session-list" aria-label={`Сеансы ${u.username}`}>
                    {own.map((s) => (
                      <SessionRow key={s.id} session={s} busy={busy === s.id} onEnd={() => void end(s, u.username)} />
                    ))}
                  </ul>
                ) : (
                  <p className="person__meta">Сейчас не в панели</p>
                ))}
              {!self && (
                <button
                  type="button"
                  className="btn btn--danger person__remove"
                  disabled={removing === u.id}
                  aria-busy={removing === u.id}
                  onClick={() => void remove(u)}
                >
                  <Icon name="trash" /> Удалить<span className="visually-hidden"> {u.username}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <AddPerson onAdded={onChanged} cabins={cabins} />
    </section>
  );
}

function AddPerson({ onAdded, cabins }: { onAdded: () => Promise<void>; cabins: CabinName[] }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('manager');
  const [cabinIds, setCabinIds] = useState<number[]>([]);
  const cleaner = role === 'cleaner';
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const notify = useNotify();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = userCreateSchema.safeParse(cleaner ? { username, role, cabinIds } : { username, password, role });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const added = await call(client().admin.users.$post({ json: parsed.data }));
      notify.success(
        added.role === 'cleaner'
          ? `${ROLE_LABELS[added.role]} «${added.username}» добавлен: создайте ему ссылку для входа`
          : `${ROLE_LABELS[added.role]} «${added.username}» добавлен: передайте ему логин и пароль`,
      );
      setUsername('');
      setPassword('');
      setRole('manager');
      setCabinIds([]);
      await onAdded();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      if (err instanceof ApiError && err.message === MSG.usernameTaken) {
        setErrors({ username: err.message });
        focusFirstInvalid(form.current);
      } else notify.error(describeError(err, 'Не удалось добавить пользователя'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={form}
      className="people__add"
      onSubmit={submit}
      noValidate
      autoComplete="off"
      aria-labelledby="people-add-title"
    >
      <h4 className="people__add-title" id="people-add-title">
        Добавить человека
      </h4>
      <div className="form-grid">
        <Field label="Логин" error={errors.username} hint="От 3 до 50 символов" required>
          {(p) => (
            <input
              {...p}
              className="input"
              name="new-username"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          )}
        </Field>
        {!cleaner && (
          <Field label="Пароль" error={errors.password} hint="Не короче 8 символов" required>
            {(p) => (
              <PasswordInput
                {...p}
                name="new-person-password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
        )}
      </div>
      <fieldset className="field">
        <legend className="label">Роль</legend>
        {(['manager', 'owner', 'cleaner'] as const).map((r) => (
          <label key={r} className="check">
            <input type="radio" name="new-person-role" checked={role === r} onChange={() => setRole(r)} />
            <span>
              <b>{ROLE_LABELS[r]}</b>: {ROLE_HINTS[r]}
            </span>
          </label>
        ))}
        {errors.role && <span className="error-text">{errors.role}</span>}
      </fieldset>
      {cleaner && (
        <fieldset className="field" aria-describedby={errors.cabinIds ? 'new-person-cabins-error' : undefined}>
          <legend className="label">Какие домики убирает</legend>
          {cabins.map((c) => (
            <label key={c.id} className="check">
              <input
                type="checkbox"
                name="new-person-cabins"
                checked={cabinIds.includes(c.id)}
                onChange={(e) =>
                  setCabinIds((ids) => (e.target.checked ? [...ids, c.id] : ids.filter((id) => id !== c.id)))
                }
              />
              <span>{c.name}</span>
            </label>
          ))}
          {errors.cabinIds && (
            <span className="error-text" id="new-person-cabins-error">
              {errors.cabinIds}
            </span>
          )}
        </fieldset>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        {busy ? 'Добавление…' : 'Добавить'}
      </button>
    </form>
  );
}

const MESSENGER_NAMES = { telegram: 'Telegram', max: 'MAX' } as const;

/**
 * «Ссылка для входа» of a cleaner: made (or made anew, which stops the old one), shown once to copy
 * and send, and revoked, which also ends the cleaner's sessions.
 */
function SignInLink({ user, onChanged }: { user: UserView; onChanged: () => Promise<void> }) {
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const copy = useCopy(input, 'Ссылка скопирована');
  const confirm = useConfirm();
  const notify = useNotify();
  const failed = useFailure();
  const param = { id: String(user.id) };

  async function make() {
    if (user.linkCreatedAt !== null) {
      const ok = await confirm({
        title: 'Создать новую ссылку?',
        text: `Прежняя ссылка «${user.username}» перестанет действовать.`,
        confirmLabel: 'Создать',
        cancelLabel: 'Оставить прежнюю',
      });
      if (!ok) return;
    }
    setBusy(true);
    try {
      const made = await call(client().admin.users[':id'].link.$post({ param }));
      setUrl(made.url);
      await onChanged();
    } catch (err) {
      failed(err, 'Не удалось создать ссылку');
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    const ok = await confirm({
      title: `Отозвать ссылку «${user.username}»?`,
      text: 'Ссылка перестанет действовать, а открытые по ней сеансы завершатся сразу.',
      confirmLabel: 'Отозвать',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    try {
      await call(client().admin.users[':id'].link.$delete({ param }));
      setUrl(null);
      notify.success(`Ссылка «${user.username}» отозвана`);
      await onChanged();
    } catch (err) {
      failed(err, 'Не удалось отозвать ссылку');
    } finally {
      setBusy(false);
    }
  }

  // The morning list of tasks stops coming to whatever chat the cleaner tied in Telegram or MAX.
  async function untie() {
    setBusy(true);
    try {
      await call(client().admin.users[':id'].messengers.$delete({ param }));
      notify.success(`Список уборок больше не приходит «${user.username}» в мессенджеры`);
      await onChanged();
    } catch (err) {
      failed(err, 'Не удалось отвязать мессенджеры');
    } finally {
      setBusy(false);
    }
  }

  const inputId = `sign-in-link-${user.id}`;
  return (
    <div className="person__link">
      <p className="person__meta">
        Ссылка для входа: {user.linkCreatedAt === null ? 'не создана' : `создана ${formatDate(user.linkCreatedAt)}`}
      </p>
      {(['telegram', 'max'] as const).map((channel) => (
        <p key={channel} className="person__meta">
          {MESSENGER_NAMES[channel]}: {user.messengers.includes(channel) ? 'подключён' : 'не подключён'}
        </p>
      ))}
      {url && (
        <div className="field">
          <label className="label" htmlFor={inputId}>
            Ссылка для входа «{user.username}» (показывается один раз)
          </label>
          <input ref={input} id={inputId} className="input" readOnly value={url} onFocus={(e) => e.target.select()} />
        </div>
      )}
      <div className="person__link-actions">
        {url && (
          <button type="button" className="btn btn--primary btn--sm" onClick={() => void copy(url)}>
            Копировать ссылку
          </button>
        )}
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void make()}
        >
          {user.linkCreatedAt === null ? 'Создать ссылку для входа' : 'Новая ссылка для входа'}
          <span className="visually-hidden"> {user.username}</span>
        </button>
        {user.linkCreatedAt !== null && (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={busy}
            aria-busy={busy}
            onClick={() => void revoke()}
          >
            Отозвать ссылку<span className="visually-hidden"> {user.username}</span>
          </button>
        )}
        {user.messengers.length > 0 && (
          <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void untie()}>
            Отвязать мессенджеры<span className="visually-hidden"> {user.username}</span>
          </button>
        )}
      </div>
    </div>
  );
}
