import { useRef, useState, type FormEvent } from 'react';
import { adminPathSchema, credentialsSchema } from '../../../schema/admin.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { setFlash } from '../ui/flash.ts';
import { Field, fieldErrors, focusFirstInvalid, type FieldErrors } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useDraftForm } from '../ui/useDraftForm.ts';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

type Account = { username: string; path: string };
const SUCCESS = 'Данные аккаунта обновлены!';

/** «Аккаунт»: login, password (changed only when given) and the secret admin path. */
export function AccountTab({ username, onSaved }: { username: string; onSaved: () => void }) {
  const { state, reload, setData } = useLoad(() =>
    call(client().admin.path.$get()).then((r): Account => ({ username, path: r.path })),
  );
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void reload()} />;
  return (
    <AccountForm
      saved={state.data}
      onSaved={(a) => {
        setData(() => a);
        onSaved();
      }}
    />
  );
}

function AccountForm({ saved, onSaved }: { saved: Account; onSaved: (a: Account) => void }) {
  // The password is never kept in a draft.
  const { values, update, dirty, discard, restored } = useDraftForm('account', saved);
  const [password, setPassword] = useState('');
  // What the server asks before a change of login or password (issue 41): never kept in a draft.
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
    const creds = credentialsSchema.safeParse({ username: values.username, newPassword: password, currentPassword, code });
    const path = adminPathSchema.safeParse({ path: values.path });
    const errs: FieldErrors = {
      ...(creds.success || !credsChanged ? {} : fieldErrors(creds.error)),
      ...(path.success ? {} : fieldErrors(path.error)),
    };
    if ((credsChanged && !creds.success) || !path.success) {
      setErrors(errs);
      focusFirstInvalid(formRef.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (credsChanged && creds.success) await call(client().admin.credentials.$put({ json: creds.data }));
      // SPEC.md: the admin path is always sent.
      const res = await call(client().admin.path.$put({ json: path.data }));
      discard();
      setPassword('');
      setCurrentPassword('');
      setCode('');
      if (res.path !== saved.path) {
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
        <Field label="Новый пароль" error={errors.newPassword} hint="Оставьте пустым, чтобы не менять пароль. Не короче 8 символов.">
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
            <input
              {...p}
              className="input"
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="Код из приложения" error={errors.code} hint="Только если включён двухфакторный вход.">
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
        </Field>
      </fieldset>
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
      <FormFooter
        dirty={dirty || password !== ''}
        busy={busy}
        label="Сохранить изменения"
        onDiscard={() => (discard(), setPassword(''), setCurrentPassword(''), setCode(''))}
      />
    </form>
  );
}
