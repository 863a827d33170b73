import { lazy, Suspense, useState, type FormEvent } from 'react';
import { DRAFT_LABELS, useDraftKeys } from '../ui/drafts.ts';
import { Field, focusFirstInvalid, type FieldErrors } from '../ui/Field.tsx';
import { iconLogo } from '../../components/icons-base.ts';
import { Icon as SvgIcon } from '../../islands/Icon.tsx';
import { OFFLINE_MESSAGE } from '../client.ts';
import type { LoginResult } from './useSession.ts';

// zod is fetched when the owner starts filling in the form, not with the login screen.
const loadCheck = () => import('./login-check.ts');
// The code field too: most sign-ins never ask for it, and the login screen's script has a budget
// (80 KB gzipped, bench/budgets.ts). It is fetched with zod, so it is there when the server asks.
const loadCodeField = () => import('./CodeField.tsx');
const CodeField = lazy(() => loadCodeField().then((m) => ({ default: m.CodeField })));

type Props = {
  onLogin: (username: string, password: string, code?: string) => Promise<LoginResult>;
  /** Why the form is shown again, if the owner was signed in a moment ago. */
  ended?: 'expired' | 'loggedOut';
  /** Called once the owner starts filling in the form: time to fetch the panel. */
  onStart?: () => void;
};

export function LoginForm({ onLogin, ended, onStart }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // Two-factor sign-in: after the right password the server asks for the app's (or a recovery) code.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const drafts = useDraftKeys();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setFailure(null);
    setBusy(true);
    const parsed = await loadCheck().then(
      ({ checkLogin }) => checkLogin({ username, password }),
      () => null,
    );
    if (!parsed) {
      setBusy(false);
      setFailure(OFFLINE_MESSAGE);
      return;
    }
    if (!parsed.ok) {
      setBusy(false);
      const errs = parsed.errors;
      setErrors({
        username: username.trim() ? '' : (errs.username ?? ''),
        password: password ? '' : (errs.password ?? ''),
      });
      focusFirstInvalid(form);
      return;
    }
    if (needsCode && !code.trim()) {
      setBusy(false);
      setErrors({ code: 'Введите код' });
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    const result = await onLogin(parsed.data.username, parsed.data.password, needsCode ? code : undefined);
    setBusy(false);
    if (!result.ok && result.needsCode) {
      setNeedsCode(true);
      setFailure(null);
      return;
    }
    if (!result.ok) {
      setFailure(result.error);
      if (needsCode) setCode('');
      else setPassword('');
    }
  }

  return (
    <main className="login">
      <div className="login__card">
        <p className="login__brand">
          <SvgIcon svg={iconLogo} /> Каспий
        </p>
        <h1 className="login__title">Админ панель</h1>
        {ended === 'expired' && (
          <div className="alert alert--info login__notice" role="status">
            <p>
              <strong>Сеанс завершён.</strong> Вход действует 30 минут — войдите снова, чтобы продолжить.
            </p>
            {drafts.length > 0 && (
              <p>
                Несохранённые изменения ({drafts.map((k) => `«${DRAFT_LABELS[k]}»`).join(', ')}) не потеряны: они
                сохранены в черновике и вернутся в форму после входа. Нажмите «Сохранить», чтобы опубликовать их.
              </p>
            )}
          </div>
        )}
        {ended === 'loggedOut' && (
          <p className="alert alert--success login__notice" role="status">
            Вы вышли из админ панели.
          </p>
        )}
        <form
          className="login__form"
          onSubmit={submit}
          onFocus={() => {
            void loadCheck().catch(() => undefined);
            void loadCodeField().catch(() => undefined);
            onStart?.();
          }}
          noValidate
        >
          <Field label="Логин" error={errors.username || undefined} required>
            {(p) => (
              <input
                {...p}
                className="input"
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            )}
          </Field>
          <Field label="Пароль" error={errors.password || undefined} required>
            {(p) => (
              <input
                {...p}
                className="input"
                type="password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          {needsCode && (
            <>
              <p className="alert alert--info login__code-note" role="status">
                Пароль верный. Теперь введите код из приложения-аутентификатора на телефоне.
              </p>
              <Suspense fallback={null}>
                <CodeField value={code} onChange={setCode} error={errors.code || undefined} autoFocus required />
              </Suspense>
            </>
          )}
          <div role="alert" className="login__failure">
            {failure && <p className="alert">{failure}</p>}
          </div>
          <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={busy} aria-busy={busy}>
            {busy ? 'Вход...' : 'Войти'}
          </button>
        </form>
      </div>
    </main>
  );
}
