// «Настройки» → «Telegram для гостей»: the bot through which guests get their booking's messages
// (docs/operations.md «Telegram for guests»). The token goes to the server once and never comes
// back: the panel only learns whether a bot is connected (its name and the token's last 4
// characters), how its updates come and Telegram's last refusal.
import { useState, type FormEvent } from 'react';
import { telegramTokenSchema, type TelegramStatus } from '../../../schema/telegram.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { CodeInput, Field } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

export function GuestTelegram() {
  const { state, reload, setData } = useLoad(() => call(client().admin.messengers.$get()));
  return (
    <section className="tab tab-form max-alerts" aria-labelledby="guest-telegram-title">
      <div className="group">
        <h3 className="group__title" id="guest-telegram-title">
          Telegram для гостей
        </h3>
        {state.status === 'loading' && <Loading />}
        {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
        {state.status === 'loaded' && (
          <GuestTelegramForm status={state.data.telegram} onStatus={(telegram) => setData(() => ({ telegram }))} />
        )}
      </div>
    </section>
  );
}

function GuestTelegramForm({ status, onStatus }: { status: TelegramStatus; onStatus: (s: TelegramStatus) => void }) {
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string>();
  const [busy, setBusy] = useState<null | 'save' | 'remove'>(null);
  const notify = useNotify();
  const confirm = useConfirm();

  async function put(body: { telegram: { token: string } | null }, done: string, failure: string) {
    try {
      const next = await call(client().admin.messengers.$put({ json: body }));
      onStatus(next.telegram);
      setToken('');
      notify.success(done);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) setTokenError(err.message);
      else notify.error(describeError(err, failure));
    } finally {
      setBusy(null);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const parsed = telegramTokenSchema.safeParse(token);
    if (!parsed.success) {
      setTokenError(parsed.error.issues[0]?.message);
      return;
    }
    setTokenError(undefined);
    setBusy('save');
    void put(
      { telegram: { token: parsed.data } },
      'Бот подключён: гости увидят кнопку «Получать сообщения в Telegram»',
      'Не удалось подключить бота',
    );
  }

  async function remove() {
    const ok = await confirm({
      title: 'Отключить бота для гостей?',
      text: 'Сайт забудет токен, кнопка на странице брони пропадёт, и сообщения гостям будут уходить только на почту.',
      confirmLabel: 'Отключить',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    setBusy('remove');
    await put({ telegram: null }, 'Бот для гостей отключён', 'Не удалось отключить бота');
  }

  return (
    <>
      <p className="hint">
        Гости смогут получать сообщения о брони (подтверждение, напоминание, просьбу об отзыве) и в Telegram: на
        странице брони появится кнопка. В Telegram уходят только короткий текст и ссылка на страницу брони — без адреса,
        кодов и инструкций. Создайте отдельного бота у{' '}
        <a href="https://t.me/BotFather" target="_blank" rel="noopener noreferrer">
          @BotFather
        </a>{' '}
        (/newbot) и вставьте его токен. Токен хранится только на сервере.
      </p>
      <p className="max-alerts__state" data-guest-telegram={status.connected ? 'connected' : 'off'}>
        {status.connected ? (
          <span className="badge badge--success">Подключено</span>
        ) : (
          <span className="badge badge--muted">Не настроено</span>
        )}{' '}
        {status.connected && (
          <>
            Бот «{status.botName}» (@{status.botUsername}), токен …{status.last4},{' '}
            {status.mode === 'webhook' ? 'сообщения приходят сразу' : 'сервер забирает сообщения раз в минуту'}
          </>
        )}
      </p>
      {status.error && (
        <p className="alert" role="alert">
          {status.error}
        </p>
      )}
      {status.connected && (
        <div className="calendar-actions">
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy !== null}
            aria-busy={busy === 'remove'}
            onClick={() => void remove()}
          >
            Отключить
          </button>
        </div>
      )}
      <form className="max-alerts__token" onSubmit={save} noValidate autoComplete="off">
        <Field
          label={status.connected ? 'Новый токен бота' : 'Токен бота'}
          error={tokenError}
          hint={status.connected ? 'Только если сменили бота или выпустили новый токен.' : undefined}
        >
          {(p) => (
            <CodeInput
              {...p}
              type="password"
              value={token}
              onChange={(e) => {
                setToken(e.target.value);
                setTokenError(undefined);
              }}
            />
          )}
        </Field>
        <button type="submit" className="btn btn--primary" disabled={busy !== null} aria-busy={busy === 'save'}>
          Подключить бота
        </button>
      </form>
    </>
  );
}
