import { useRef, useState, type FormEvent } from 'react';
import { adminPathSchema, credentialsSchema } from '../../../schema/admin.ts';
import { People } from '../account/People.tsx';
import { Sessions } from '../account/Sessions.tsx';
import { TwoFactor } from '../account/TwoFactor.tsx';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { CodeField } from '../login/CodeField.tsx';
import { setFlash } from '../ui/flash.ts';
import { Field, fieldErrors, focusFirstInvalid, type FieldErrors } from '../ui/Field.tsx';
import { PasswordInput } from '../ui/Inputs.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useIsOwner, useMe } from '../ui/role.tsx';
import { useDraftForm } from '../ui/useDraftForm.ts';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';

type Account = { username: string; path: string };
const SUCCESS = 'Данные аккаунта обновлены!';

/**
 * «Аккаунт»: the login and password (changed only when given), two-factor sign-in, where the person
 * is signed in, and, for the owner, the secret admin path and the people who may sign in.
 * `onSaved` asks the server again who is signed in (a new login, two-factor on or off).
 */
export function AccountTab({ onSaved }: { onSaved: () => void }) {
  const { twoFactor } = useMe();
  return (
    <div className="tab account">
      <AccountSection onSaved={onSaved} />
      <TwoFactor onChanged={onSaved} />
      {/* Read again when two-factor sign-in is turned on or off: «Люди» says who signs in with a code. */}
      <SessionsAndPeople key={String(twoFactor)} />
    </div>
  );
}

function AccountSection({ onSaved }: { onSaved: () => void }) {
  const { username } = useMe();
  const owner = useIsOwner();
  // The admin path is the owner's: a manager's form has only the login and password.
  const { state, reload, setData } = useLoad(() =>
    owner
      ? call(client().admin.path.$get()).then((r): Account => ({ username, path: r.path }))
      : Promise.resolve<Account>({ username, path: '' }),
  );
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  return (
    <AccountForm
      saved={state.data}
      owner={owner}
      onSaved={(a) => {
        setData(() => a);
        onSaved();
      }}
    />
  );
}

/** The person's own sessions and, for the owner, everyone's with the people they belong to. */
function SessionsAndPeople() {
  const { username } = useMe();
  const owner = useIsOwner();
  const { state, reload } = useLoad(() =>
    Promise.all([
      call(client().admin.sessions.$get({ query: owner ? { all: '1' } : {} })),
      owner ? call(client().admin.users.$get()) : Promise.resolve(null),
    ]),
  );
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  const [sessions, users] = state.data;
  const refresh = () => reload(true);
  return (
    <>
      <Sessions sessions={sessions.filter((s) => s.username === username)} onChanged={refresh} />
      {users && <People users={users} sessions={sessions} onChanged={refresh} />}
    </>
  );
}

function AccountForm({ saved, owner, onSaved }: { saved: Account; owner: boolean; onSaved: (a: Account) => void }) {
  const { twoFactor } = useMe();
  // The password is never kept in a draft.
  const { values, update, dirty, discard, restored } = useDraftForm('account', saved);
  const [password, setPassword] = useState('');
  // What the server asks before a change of login or password: never kept in a draft.
  const [currentPassword, setCurrentPassword] = useState('');
  const [code, setCode] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const notify = useNotify();
  const origin = typeof location === 'undefined' ? '' : location.origin;

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The login and password are sent only when one of them changes: the admin path alone needs no password.
    const credsChanged = password !== '' || values.username.trim() !== saved.username;
    const creds = credentialsSchema.safeParse({
      username: values.username,
      newPassword: password,
      currentPassword,
      code,
    });
    const path = owner ? adminPathSchema.safeParse({ path: values.path }) : ({ success: true, data: null } as const);
    const errs: FieldErrors = {
      ...(creds.success || !credsChanged ? {} : fieldErrors(creds.error)),
      ...(path.success ? {} : fieldErrors(path.error)),
      // With two-factor sign-in on the server asks for the code too: say so before sending.
      ...(credsChanged && twoFactor && !code.trim() ? { code: 'Введите код из приложения' } : {}),
    };
    if ((credsChanged && !creds.success) || !path.success || errs.code) {
      setErrors(errs);
      focusFirstInvalid(formRef.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (credsChanged && creds.success) await call(client().admin.credentials.$put({ json: creds.data }));
      // The admin path is always sent (by the owner; a manager has none to send).
      const res = path.data ? await call(client().admin.path.$put({ json: path.data })) : { path: saved.path };
      discard();
      setPassword('');
      setCurrentPassword('');
      setCode('');
      if (owner && res.path !== saved.path) {
        // The panel lives at the new address now; the old one answers 404.
        setFlash(`${SUCCESS} Панель теперь открывается по адресу ${origin}/${res.path}`);
        location.assign(`/${res.path}#account`);
        return;
      }
      onSaved({ username: values.username.trim(), path: res.path });
      notify.success(SUCCESS);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      console.error(err);
      notify.error(describeError(err, 'Ошибка при сохранении данных аккаунта'));
    } finally {
      setBusy(false);
    }
  }

  const pathChanged = values.path.replace(/^\/+|\/+$/g, '').trim() !== saved.path;
  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate autoComplete="off">
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Вход в панель</legend>
        <Field label="Новый логин" error={errors.username}>
          {(p) => (
            <input
              {...p}
              className="input"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={values.username}
              onChange={(e) => update({ username: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Новый пароль"
          error={errors.newPassword}
          hint="Оставьте пустым, чтобы не менять пароль. Не короче 8 символов."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={showPassword} onChange={(e) => setShowPassword(e.target.checked)} />
          Показать пароль
        </label>
        <Field label="Текущий пароль" error={errors.currentPassword} hint="Нужен, чтобы сменить логин или пароль.">
          {(p) => (
            <PasswordInput
              {...p}
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
          )}
        </Field>
        {twoFactor && (
          <CodeField
            value={code}
            onChange={setCode}
            error={errors.code}
            hint="Нужен, чтобы сменить логин или пароль: 6 цифр из приложения."
          />
        )}
      </fieldset>
      {owner && (
        <fieldset className="group">
          <legend>Адрес панели</legend>
          <Field
            label="Путь к админ панели"
            error={errors.path}
            hint={
              pathChanged
                ? 'После сохранения панель откроется по новому адресу, а старый перестанет работать. Запомните его или добавьте в закладки.'
                : 'Секретная часть адреса, по которой открывается эта панель.'
            }
          >
            {(p) => (
              <div className="input-prefix">
                <span className="input-prefix__text" aria-hidden="true">
                  {origin.replace(/^https?:\/\//, '')}/
                </span>
                <input
                  {...p}
                  className="input"
                  autoCapitalize="none"
                  spellCheck={false}
                  value={values.path}
                  onChange={(e) => update({ path: e.target.value })}
                />
              </div>
            )}
          </Field>
        </fieldset>
      )}
      <FormFooter
        dirty={dirty || password !== ''}
        busy={busy}
        label="Сохранить изменения"
        onDiscard={() => (discard(), setPassword(''), setCurrentPassword(''), setCode(''))}
      />
    </form>
  );
}
