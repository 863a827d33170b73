// «Аккаунт» → «Вход с кодом»: two-factor sign-in of the person signed in. Set up with a
// QR code of the server's otpauth:// address (drawn by the `qrcode` package) or the key typed by
// hand, confirmed with the first code and the password, then ten recovery codes shown once.
// Turning it off asks for a code, so a session left open on someone's phone cannot.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../../schema/messages.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { Field, type FieldErrors } from '../ui/Field.tsx';
import { PasswordInput } from '../ui/Inputs.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useMe } from '../ui/role.tsx';
import { useBusyAction } from '../ui/useFailure.ts';
import { CodeField } from '../login/CodeField.tsx';

type Setup = { secret: string; otpauthUrl: string };
type Stage = { step: 'idle' } | { step: 'setup'; setup: Setup } | { step: 'codes'; codes: string[]; renewed?: boolean };

/** The key in groups of four, as authenticator apps show it and a person types it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** The server's refusal under the field it is about, or null when it is about nothing typed here. */
function fieldOf(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  if (err.message === MSG.codeWrong || err.message === MSG.codeRequired) return { code: err.message };
  if (err.message === MSG.currentPasswordWrong || err.message === MSG.currentPasswordRequired)
    return { password: err.message };
  return null;
}

export function TwoFactor({ onChanged }: { onChanged: () => void }) {
  const me = useMe();
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [busy, run] = useBusyAction();

  async function start() {
    await run(async () => {
      setStage({ step: 'setup', setup: await call(client().admin['2fa'].setup.$post()) });
    }, 'Не удалось начать настройку входа с кодом');
  }

  return (
    <section className="group two-factor" aria-labelledby="two-factor-title">
      <h3 className="group__title" id="two-factor-title">
        Вход с кодом
      </h3>
      {stage.step === 'codes' ? (
        <RecoveryCodes codes={stage.codes} renewed={stage.renewed} onDone={() => setStage({ step: 'idle' })} />
      ) : stage.step === 'setup' ? (
        <SetupForm
          setup={stage.setup}
          onCancel={() => setStage({ step: 'idle' })}
          onEnabled={(codes) => {
            setStage({ step: 'codes', codes });
            onChanged();
          }}
        />
      ) : me.twoFactor ? (
        <>
          <p className="two-factor__state two-factor__state--on">
            <Icon name="check" /> Включён: после пароля панель спрашивает код из приложения.
          </p>
          <RenewForm onRenewed={(codes) => setStage({ step: 'codes', codes, renewed: true })} />
          <DisableForm onDisabled={onChanged} />
        </>
      ) : (
        <>
          <p className="two-factor__state">
            <Icon name="x" /> Выключен: в панель входят по одному паролю.
          </p>
          <p className="hint">
            С кодом вход надёжнее: после пароля панель спросит 6 цифр из приложения на вашем телефоне (Яндекс Ключ,
            Google Authenticator и другие). Узнав пароль, без телефона никто не войдёт.
          </p>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void start()}
            disabled={busy}
            aria-busy={busy}
          >
            {busy ? 'Подготовка…' : 'Включить вход с кодом'}
          </button>
        </>
      )}
    </section>
  );
}

/** The QR code of the otpauth:// address as an SVG picture; the library loads only when it is needed. */
function QrCode({ text }: { text: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    import('qrcode')
      .then((qr) =>
        qr.toString(text, {
          type: 'svg',
          margin: 2,
          errorCorrectionLevel: 'M',
          color: { dark: '#000000', light: '#ffffff' },
        }),
      )
      .then((svg) => alive && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => alive && setSrc(''));
    return () => {
      alive = false;
    };
  }, [text]);
  if (src === '')
    return <p className="alert alert--warning">QR-код не загрузился: введите ключ в приложении вручную.</p>;
  if (src === null) return <div className="two-factor__qr two-factor__qr--loading" aria-hidden="true" />;
  return (
    <img className="two-factor__qr" src={src} width={200} height={200} alt="QR-код для приложения-аутентификатора" />
  );
}

/**
 * What turning the code on and renewing the recovery codes share: a code and the password, each
 * asked for here when empty, then the server's refusal under the field it is about (a wrong code
 * is cleared), and the ten codes it answers with handed on.
 */
function useCodeAndPassword(opts: {
  send: (json: { code: string; password: string }) => Promise<{ recoveryCodes: string[] }>;
  onCodes: (codes: string[]) => void;
  codeMissing: string;
  failed: string;
}) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const notify = useNotify();
  const focus = (wrong: FieldErrors) =>
    (wrong.code ? codeInput.current : form.current?.querySelector<HTMLElement>('[name="password"]'))?.focus();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const missing: FieldErrors = {
      ...(code.trim() ? {} : { code: opts.codeMissing }),
      ...(password ? {} : { password: MSG.currentPasswordRequired }),
    };
    if (Object.keys(missing).length) {
      setErrors(missing);
      focus(missing);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      opts.onCodes((await opts.send({ code, password })).recoveryCodes);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      const field = fieldOf(err);
      if (field) {
        setErrors(field);
        if (field.code) setCode('');
        focus(field);
      } else notify.error(describeError(err, opts.failed));
    } finally {
      setBusy(false);
    }
  }

  return { code, setCode, password, setPassword, errors, busy, form, codeInput, submit };
}

function SetupForm({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: Setup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const { code, setCode, password, setPassword, errors, busy, form, codeInput, submit } = useCodeAndPassword({
    send: (json) => call(client().admin['2fa'].enable.$post({ json })),
    onCodes: onEnabled,
    codeMissing: 'Введите 6 цифр из приложения',
    failed: 'Не удалось включить вход с кодом',
  });

  return (
    <form ref={form} className="two-factor__setup" onSubmit={submit} noValidate aria-label="Настройка входа с кодом">
      <ol className="two-factor__steps">
        <li>
          Откройте на телефоне приложение-аутентификатор (Яндекс Ключ, Google Authenticator) и отсканируйте QR-код.
          <QrCode text={setup.otpauthUrl} />
          <Field
            label="Ключ для ввода вручную"
            hint="Если QR-код не сканируется: добавьте в приложении аккаунт «Каспий» и введите этот ключ."
          >
            {/* A text area, so the 32 letters wrap on a narrow phone instead of hiding past the edge. */}
            {(p) => (
              <textarea
                {...p}
                className="input input--code two-factor__secret"
                readOnly
                rows={2}
                value={grouped(setup.secret)}
                onFocus={(e) => e.currentTarget.select()}
              />
            )}
          </Field>
        </li>
        <li>
          Введите 6 цифр, которые показывает приложение, и ваш пароль.
          <div className="form-grid">
            <Field label="Код из приложения" error={errors.code} required>
              {(p) => (
                <input
                  {...p}
                  ref={codeInput}
                  className="input"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={12}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              )}
            </Field>
            <CurrentPassword value={password} onChange={setPassword} error={errors.password} />
          </div>
        </li>
      </ol>
      <div className="two-factor__actions">
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Проверка…' : 'Подтвердить и включить'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>
          Отмена
        </button>
      </div>
    </form>
  );
}

/** The ten recovery codes, once: the server keeps only their hashes and never shows them again. */
function RecoveryCodes({ codes, renewed = false, onDone }: { codes: string[]; renewed?: boolean; onDone: () => void }) {
  const list = useRef<HTMLOListElement>(null);
  const notify = useNotify();
  const heading = useRef<HTMLParagraphElement>(null);
  // Where the person's eyes and screen reader should go: the codes replaced the form they typed in.
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('Коды восстановления скопированы');
      return;
    } catch {
      // No clipboard here (an old browser, no permission): select them for the phone's own «Копировать».
    }
    const range = document.createRange();
    range.selectNodeContents(list.current!);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    notify.info('Коды выделены: нажмите на них и выберите «Копировать»');
  }

  return (
    <div className="two-factor__codes">
      <p className="two-factor__state two-factor__state--on" tabIndex={-1} ref={heading}>
        <Icon name="check" />{' '}
        {renewed ? 'Новые коды восстановления готовы: прежние больше не действуют' : 'Вход с кодом включён'}
      </p>
      <div className="alert alert--warning" role="note">
        <p>
          <strong>Сохраните коды восстановления сейчас: больше они не покажутся.</strong>
        </p>
        <p>
          Если телефона с приложением не будет под рукой, войдите с одним из этих кодов вместо 6 цифр. Каждый код
          работает один раз. Храните их отдельно от телефона: запишите на бумаге или в менеджере паролей.
        </p>
      </div>
      <ol className="two-factor__list" ref={list} aria-label="Коды восстановления">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="two-factor__actions">
        <button type="button" className="btn btn--secondary" onClick={() => void copy()}>
          Скопировать
        </button>
        <button type="button" className="btn btn--primary" onClick={onDone}>
          Я сохранил(а) коды
        </button>
      </div>
    </div>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError(MSG.codeRequired);
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await call(client().admin['2fa'].disable.$post({ json: { code } }));
      setCode('');
      notify.success('Вход с кодом выключен');
      onDisabled();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      const field = fieldOf(err);
      if (field?.code) {
        setError(field.code);
        setCode('');
        input.current?.focus();
      } else notify.error(describeError(err, 'Не удалось выключить вход с кодом'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="two-factor__more two-factor__off">
      <summary>Выключить вход с кодом</summary>
      <form onSubmit={submit} noValidate aria-label="Выключить вход с кодом">
        <CodeField label="Код для выключения" value={code} onChange={setCode} error={error} inputRef={input} />
        <button type="submit" className="btn btn--danger" disabled={busy} aria-busy={busy}>
          {busy ? 'Выключение…' : 'Выключить'}
        </button>
      </form>
    </details>
  );
}

/**
 * Ten new recovery codes for the old ones (some spent, or the paper seen by someone), with a code
 * (from the app, or one of the old recovery codes) and the password: a session left open is not enough.
 */
function RenewForm({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const { code, setCode, password, setPassword, errors, busy, form, codeInput, submit } = useCodeAndPassword({
    send: (json) => call(client().admin['2fa']['recovery-codes'].$post({ json })),
    onCodes: onRenewed,
    codeMissing: MSG.codeRequired,
    failed: 'Не удалось получить новые коды восстановления',
  });

  return (
    <details className="two-factor__more">
      <summary>Новые коды восстановления</summary>
      <form ref={form} onSubmit={submit} noValidate aria-label="Новые коды восстановления">
        <p className="hint">
          Прежние коды перестанут действовать. Понадобятся код из приложения (или один из прежних кодов восстановления)
          и ваш пароль.
        </p>
        <CodeField
          label="Код для подтверждения"
          value={code}
          onChange={setCode}
          error={errors.code}
          inputRef={codeInput}
        />
        <CurrentPassword value={password} onChange={setPassword} error={errors.password} />
        <button type="submit" className="btn btn--secondary" disabled={busy} aria-busy={busy}>
          {busy ? 'Проверка…' : 'Получить новые коды'}
        </button>
      </form>
    </details>
  );
}

/** «Ваш пароль», asked again to turn two-factor sign-in on and to renew its recovery codes. */
function CurrentPassword({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <Field label="Ваш пароль" error={error} required>
      {(p) => (
        <PasswordInput
          {...p}
          name="password"
          autoComplete="current-password"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
