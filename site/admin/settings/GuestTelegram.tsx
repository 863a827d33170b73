// «Настройки» → «Telegram для гостей»: the bot through which guests get their booking's messages
// (docs/operations.md «Telegram for guests»). The token goes to the server once and never comes
// back: the panel only learns whether a bot is connected (its name and the token's last 4
// characters), how its updates come and Telegram's last refusal.
import { useState, type FormEvent } from 'react';
import { telegramTokenSchema, type TelegramStatus } from '../../../schema/telegram.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { BotSection, BotTokenForm, DisconnectButton } from './BotTokenForm.tsx';

export function GuestTelegram() {
  return (
    <BotSection
      titleId="guest-telegram-title"
      title="Telegram для гостей"
      load={() => call(client().admin.messengers.$get())}
    >
      {(data, onData) => (
        <GuestTelegramForm status={data.telegram} onStatus={(telegram) => onData({ ...data, telegram })} />
      )}
    </BotSection>
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
          <DisconnectButton busy={busy !== null} removing={busy === 'remove'} onClick={() => void remove()} />
        </div>
      )}
      <BotTokenForm
        replacing={status.connected}
        token={token}
        error={tokenError}
        busy={busy !== null}
        saving={busy === 'save'}
        submitLabel="Подключить бота"
        onToken={(value) => {
          setToken(value);
          setTokenError(undefined);
        }}
        onSubmit={save}
      />
    </>
  );
}
