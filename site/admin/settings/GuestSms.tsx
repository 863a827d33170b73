// «Настройки» → «SMS гостям»: the owner's SMS.ru account, through which a guest who tied no
// messenger gets the confirmation and the reminder before arrival, with the link to their page (docs/operations.md
// «SMS for guests»). The key goes to the server once and never comes back: the panel learns the
// key's last 4 characters and what SMS.ru reported (the balance, the price of a part, the sender
// names), this month's spending against the cap and SMS.ru's last refusal.
import { useState, type FormEvent } from 'react';
import {
  SMS_CAP_DEFAULT_RUB,
  SMS_PROVIDER_LABELS,
  SMS_SENDING_PROVIDERS,
  smsSettingsBody,
  type SmsProvider,
  type SmsSettingsBody,
  type SmsStatus,
} from '../../../schema/sms.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { CodeInput, Field } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { BotSection, DisconnectButton } from './BotTokenForm.tsx';

const rub = (n: number) =>
  `${n.toLocaleString('ru-RU', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 })} ₽`;

/** «3 части», «1 часть», «5 частей». */
export const parts = (n: number) => {
  const tens = n % 100;
  const ones = n % 10;
  const word = tens >= 11 && tens <= 14 ? 'частей' : ones === 1 ? 'часть' : ones >= 2 && ones <= 4 ? 'части' : 'частей';
  return `${n} ${word}`;
};

export function GuestSms() {
  return (
    <BotSection titleId="guest-sms-title" title="SMS гостям" load={() => call(client().admin.messengers.$get())}>
      {(data, onData) => <GuestSmsForm status={data.sms} onStatus={(sms) => onData({ ...data, sms })} />}
    </BotSection>
  );
}

type Errors = Partial<Record<'key' | 'sender' | 'monthlyCapRub' | 'form', string>>;

export function GuestSmsForm({ status, onStatus }: { status: SmsStatus; onStatus: (s: SmsStatus) => void }) {
  const [provider, setProvider] = useState<SmsProvider>(status.provider ?? 'smsru');
  const [key, setKey] = useState('');
  const [sender, setSender] = useState(status.sender ?? '');
  const [cap, setCap] = useState(String(status.monthlyCapRub ?? SMS_CAP_DEFAULT_RUB));
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<null | 'save' | 'remove'>(null);
  const notify = useNotify();
  const confirm = useConfirm();

  async function put(body: { sms: SmsSettingsBody | null }, done: string, failure: string) {
    try {
      const next = await call(client().admin.messengers.$put({ json: body }));
      onStatus(next.sms);
      setKey('');
      setSender(next.sms.sender ?? '');
      if (next.sms.monthlyCapRub !== undefined) setCap(String(next.sms.monthlyCapRub));
      notify.success(done);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 600 && err.status !== 500)
        setErrors({ form: err.message });
      else notify.error(describeError(err, failure));
    } finally {
      setBusy(null);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const parsed = smsSettingsBody.safeParse({
      provider,
      ...(key.trim() ? { key } : {}),
      ...(status.connected ? { sender } : {}),
      monthlyCapRub: cap.trim() === '' ? Number.NaN : Number(cap),
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy('save');
    void put(
      { sms: parsed.data },
      status.connected
        ? 'Настройки SMS сохранены, ключ проверен'
        : 'SMS включены: напоминания уйдут гостям без мессенджера',
      'Не удалось сохранить настройки SMS',
    );
  }

  async function remove() {
    const ok = await confirm({
      title: 'Выключить SMS гостям?',
      text: 'Сайт забудет ключ SMS.ru, и сообщения гостям без мессенджера будут уходить только на почту. Ещё не отправленные SMS не уйдут.',
      confirmLabel: 'Выключить',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    setBusy('remove');
    await put({ sms: null }, 'SMS гостям выключены', 'Не удалось выключить SMS');
  }

  const sendable = SMS_SENDING_PROVIDERS.includes(provider);
  return (
    <>
      <p className="hint">
        Гостю, который не подключил мессенджер, но оставил телефон, подтверждение брони и напоминание о заезде придут по
        SMS — короткий текст и ссылка на страницу брони, без адреса, кодов и инструкций. SMS уходят с вашего аккаунта{' '}
        <a href="https://sms.ru" target="_blank" rel="noopener noreferrer">
          SMS.ru
        </a>
        : ключ API (api_id) — в личном кабинете, раздел «Программистам». Ключ хранится только на сервере; больше
        месячного лимита сайт не потратит.
      </p>
      <p className="max-alerts__state" data-guest-sms={status.connected ? 'connected' : 'off'}>
        {status.connected ? (
          <span className="badge badge--success">Включено</span>
        ) : (
          <span className="badge badge--muted">Выключено</span>
        )}{' '}
        {status.connected && (
          <>
            {SMS_PROVIDER_LABELS[status.provider ?? 'smsru']}, ключ …{status.last4}
            {status.balanceRub !== undefined && <>, на счёте {rub(status.balanceRub)}</>}
          </>
        )}
      </p>
      {status.connected && (
        <ul className="hint" data-sms-facts>
          {status.price && (
            <li>
              Цена: {rub(status.price.perPartRub)} за часть SMS (до 70 знаков кириллицей, в длинном сообщении — по 67);
              напоминание — {parts(status.price.reminderParts)}, около {rub(status.price.reminderRub)}
            </li>
          )}
          {status.month && status.monthlyCapRub !== undefined && (
            <li>
              В этом месяце потрачено {rub(status.month.spentRub)} из {rub(status.monthlyCapRub)}
              {status.month.reservedRub > 0 && <> (ещё {rub(status.month.reservedRub)} — в отправке)</>}
            </li>
          )}
          <li>
            Отправитель: {status.sender ? `«${status.sender}»` : 'стандартный SMS.ru'}
            {status.senders && status.senders.length > 0 && <> (одобрены: {status.senders.join(', ')})</>}
          </li>
        </ul>
      )}
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
      <form className="max-alerts__token" onSubmit={save} noValidate autoComplete="off" aria-label="SMS гостям">
        <Field label="Сервис SMS">
          {(p) => (
            <select
              {...p}
              className="input"
              value={provider}
              onChange={(e) => {
                setProvider(e.target.value as SmsProvider);
                setErrors({});
              }}
            >
              <option value="smsru">SMS.ru</option>
              <option value="smsc">SMSC.ru (скоро)</option>
            </select>
          )}
        </Field>
        <Field
          label={status.connected ? 'Новый ключ API' : 'Ключ API (api_id)'}
          error={errors.key}
          hint={status.connected ? 'Только если выпустили новый ключ; иначе сайт проверит сохранённый.' : undefined}
        >
          {(p) => (
            <CodeInput
              {...p}
              type="password"
              value={key}
              onChange={(e) => {
                setKey(e.target.value);
                setErrors({});
              }}
            />
          )}
        </Field>
        {status.connected && (
          <Field label="Имя отправителя" error={errors.sender}>
            {(p) => (
              <select {...p} className="input" value={sender} onChange={(e) => setSender(e.target.value)}>
                <option value="">Стандартное SMS.ru</option>
                {(status.senders ?? []).map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field
          label="Лимит в месяц, ₽"
          error={errors.monthlyCapRub}
          hint="Когда лимит исчерпан, SMS ждут следующего месяца или нового лимита."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              value={cap}
              onChange={(e) => {
                setCap(e.target.value);
                setErrors({});
              }}
            />
          )}
        </Field>
        {errors.form && (
          <p className="error-text" role="alert">
            {errors.form}
          </p>
        )}
        <button
          type="submit"
          className="btn btn--primary"
          disabled={busy !== null || !sendable}
          aria-busy={busy === 'save'}
        >
          {status.connected ? 'Сохранить и проверить' : 'Включить SMS'}
        </button>
        {!sendable && <p className="hint">SMSC.ru пока не поддерживается: подключите SMS.ru.</p>}
      </form>
    </>
  );
}
