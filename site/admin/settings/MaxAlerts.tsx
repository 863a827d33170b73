// «Настройки» → «Уведомления в MAX»: the owner's own MAX bot writes to them about new requests
// and reviews. The token goes to the server once and never comes back: the
// panel only learns whether one is set (its last 4 characters), the bot's link and the state.
import { useState, type FormEvent } from 'react';
import { maxTokenSchema, type MaxStatus } from '../../../schema/max.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { BotSection, BotTokenForm, DisconnectButton } from './BotTokenForm.tsx';

export function MaxAlerts() {
  return (
    <BotSection titleId="max-alerts-title" title="Уведомления в MAX" load={() => call(client().admin.max.$get())}>
      {(data, onData) => <MaxAlertsForm status={data} onStatus={onData} />}
    </BotSection>
  );
}

type Busy = null | 'save' | 'check' | 'test' | 'remove';

function MaxAlertsForm({ status, onStatus }: { status: MaxStatus; onStatus: (s: MaxStatus) => void }) {
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string>();
  const [busy, setBusy] = useState<Busy>(null);
  const notify = useNotify();
  const confirm = useConfirm();

  /** Runs one action; a 4xx's Russian reason goes where the owner looks (`onRefused`), else a notice. */
  async function run(kind: Busy, action: () => Promise<void>, failure: string, onRefused?: (message: string) => void) {
    setBusy(kind);
    try {
      await action();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      if (onRefused && err instanceof ApiError && err.status >= 400 && err.status < 500) onRefused(err.message);
      else notify.error(describeError(err, failure));
    } finally {
      setBusy(null);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const parsed = maxTokenSchema.safeParse({ token });
    if (!parsed.success) {
      setTokenError(parsed.error.issues[0]?.message);
      return;
    }
    setTokenError(undefined);
    void run(
      'save',
      async () => {
        const next = await call(client().admin.max.$put({ json: parsed.data }));
        setToken('');
        onStatus(next);
        notify.success(
          next.connected
            ? 'Токен сохранён, бот MAX по-прежнему подключён'
            : 'Токен сохранён. Откройте бота по ссылке и нажмите «Начать»',
        );
      },
      'Не удалось сохранить токен',
      setTokenError,
    );
  }

  const check = () =>
    void run(
      'check',
      async () => {
        const next = await call(client().admin.max.check.$post());
        onStatus(next);
        notify.success('Подключено: уведомления будут приходить вам в MAX');
      },
      'Не удалось проверить подключение',
      (message) => notify.error(message),
    );

  const test = () =>
    void run(
      'test',
      async () => {
        await call(client().admin.max.test.$post());
        notify.success('Тестовое сообщение отправлено: проверьте MAX');
      },
      'Не удалось отправить тестовое сообщение',
      (message) => notify.error(message),
    );

  async function remove() {
    const ok = await confirm({
      title: 'Отключить уведомления в MAX?',
      text: 'Сайт забудет токен бота и перестанет писать вам в MAX. Подключить снова можно в любой момент.',
      confirmLabel: 'Отключить',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    await run(
      'remove',
      async () => {
        onStatus(await call(client().admin.max.$delete()));
        notify.success('Уведомления в MAX отключены');
      },
      'Не удалось отключить уведомления',
    );
  }

  return (
    <>
      <p className="hint">
        Сайт будет писать вам в MAX о новых заявках и отзывах — вместе с Telegram и почтой. Создайте бота на{' '}
        <a href="https://business.max.ru/self" target="_blank" rel="noopener noreferrer">
          business.max.ru
        </a>{' '}
        («Чат-боты»), скопируйте его токен («⋮» → «Настройки») и вставьте сюда. Токен хранится только на сервере и на
        сайте не показывается.
      </p>
      <p className="hint">
        Тот же бот пишет и гостям: на странице брони появится кнопка «Получать сообщения в MAX», а ответы гостей придут
        в «Сообщения».
      </p>

      <p
        className="max-alerts__state"
        data-max-state={status.connected ? 'connected' : status.configured ? 'waiting' : 'off'}
      >
        {status.connected ? (
          <span className="badge badge--success">Подключено</span>
        ) : status.configured ? (
          <span className="badge badge--warning">Ждёт «Начать»</span>
        ) : (
          <span className="badge badge--muted">Не настроено</span>
        )}{' '}
        {status.configured && (
          <>
            Бот «{status.botName}» (@{status.botUsername}){status.tokenEnding && <>, токен …{status.tokenEnding}</>}
            {status.connected && status.connectedAt && (
              <>, подключён {new Date(status.connectedAt).toLocaleDateString('ru-RU')}</>
            )}
          </>
        )}
      </p>

      {status.configured && status.link && !status.connected && (
        <ol className="max-alerts__steps">
          <li>
            Откройте ссылку на телефоне, где установлен MAX:{' '}
            <a href={status.link} target="_blank" rel="noopener noreferrer" className="max-alerts__link">
              {status.link}
            </a>
          </li>
          <li>Нажмите в чате с ботом «Начать».</li>
          <li>Вернитесь сюда и нажмите «Проверить подключение».</li>
        </ol>
      )}

      {status.configured && (
        <div className="calendar-actions">
          <button
            type="button"
            className={`btn ${status.connected ? 'btn--secondary' : 'btn--primary'}`}
            disabled={busy !== null}
            aria-busy={busy === 'check'}
            onClick={check}
          >
            Проверить подключение
          </button>
          {status.connected && (
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy !== null}
              aria-busy={busy === 'test'}
              onClick={test}
            >
              Отправить тестовое сообщение
            </button>
          )}
          <DisconnectButton busy={busy !== null} removing={busy === 'remove'} onClick={() => void remove()} />
        </div>
      )}

      <BotTokenForm
        replacing={status.configured}
        token={token}
        error={tokenError}
        busy={busy !== null}
        saving={busy === 'save'}
        submitLabel="Сохранить токен"
        onToken={(value) => {
          setToken(value);
          setTokenError(undefined);
        }}
        onSubmit={save}
      />
    </>
  );
}
