// «Аккаунт» → «Люди» (the owner's alone): who may sign in, with what role, whether they
// sign in with a code and where they are signed in now. The owner adds a manager with a password
// of their own, ends a session left open on a lost phone, and removes someone who left.
import { useRef, useState, type FormEvent } from 'react';
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
import { SessionRow, useEndSession } from './Sessions.tsx';

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
        площадки и доступы. Кто что менял — во вкладке «Журнал».
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
                {u.twoFactor ? 'Входит с кодом' : 'Входит только по паролю'} · добавлен(а) {formatDate(u.createdAt)}
              </p>
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
      <AddPerson onAdded={onChanged} />
    </section>
  );
}

function AddPerson({ onAdded }: { onAdded: () => Promise<void> }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('manager');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const notify = useNotify();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = userCreateSchema.safeParse({ username, password, role });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const added = await call(client().admin.users.$post({ json: parsed.data }));
      notify.success(`${ROLE_LABELS[added.role]} «${added.username}» добавлен: передайте ему логин и пароль`);
      setUsername('');
      setPassword('');
      setRole('manager');
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
      </div>
      <fieldset className="field">
        <legend className="label">Роль</legend>
        {(['manager', 'owner'] as const).map((r) => (
          <label key={r} className="check">
            <input type="radio" name="new-person-role" checked={role === r} onChange={() => setRole(r)} />
            <span>
              <b>{ROLE_LABELS[r]}</b>: {ROLE_HINTS[r]}
            </span>
          </label>
        ))}
        {errors.role && <span className="error-text">{errors.role}</span>}
      </fieldset>
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        {busy ? 'Добавление…' : 'Добавить'}
      </button>
    </form>
  );
}
