// What the two bot settings («Telegram для гостей», «Уведомления в MAX») show alike: the section
// that loads the bot's state, the form that sends a new token (a password field, so it is never
// shown, cleared once saved) and the button that disconnects the bot.
import type { FormEvent, ReactNode } from 'react';
import { CodeInput, Field } from '../ui/Field.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

/** A bot's settings group: its title, then loading, a load error with a retry, or `children` with the state. */
export function BotSection<T>({
  titleId,
  title,
  load,
  children,
}: {
  titleId: string;
  title: string;
  load: () => Promise<T>;
  children: (data: T, onData: (next: T) => void) => ReactNode;
}) {
  const { state, reload, setData } = useLoad(load);
  return (
    <section className="tab tab-form max-alerts" aria-labelledby={titleId}>
      <div className="group">
        <h3 className="group__title" id={titleId}>
          {title}
        </h3>
        {state.status === 'loading' && <Loading />}
        {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
        {state.status === 'loaded' && children(state.data, (next) => setData(() => next))}
      </div>
    </section>
  );
}

/** The token's form; `replacing` once a bot is set, so the field asks for a new token only if it changed. */
export function BotTokenForm({
  replacing,
  token,
  error,
  busy,
  saving,
  submitLabel,
  onToken,
  onSubmit,
}: {
  replacing: boolean;
  token: string;
  error: string | undefined;
  /** Any action of the bot is under way: the button waits. */
  busy: boolean;
  /** This form's own save is under way. */
  saving: boolean;
  submitLabel: string;
  onToken: (token: string) => void;
  onSubmit: (e: FormEvent) => void;
}) {
  return (
    <form className="max-alerts__token" onSubmit={onSubmit} noValidate autoComplete="off">
      <Field
        label={replacing ? 'Новый токен бота' : 'Токен бота'}
        error={error}
        hint={replacing ? 'Только если сменили бота или выпустили новый токен.' : undefined}
      >
        {(p) => <CodeInput {...p} type="password" value={token} onChange={(e) => onToken(e.target.value)} />}
      </Field>
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={saving}>
        {submitLabel}
      </button>
    </form>
  );
}

/** «Отключить»: the caller asks first and forgets the token. */
export function DisconnectButton({
  busy,
  removing,
  onClick,
}: {
  busy: boolean;
  removing: boolean;
  onClick: () => void;
}) {
  return (
    <button type="button" className="btn btn--danger" disabled={busy} aria-busy={removing} onClick={onClick}>
      Отключить
    </button>
  );
}
