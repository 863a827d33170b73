// «Календарь» → «Площадки»: one calendar across every channel. The conflicts first, in
// red, when two stays claim the same nights; the Avito account (a short how-to and its keys, or
// the profile it is connected to); «Синхронизировать сейчас» with what each exchange came to; then
// every cabin against every channel, as cards on a phone: its Avito listing (linked, changed or
// unlinked here), each iCal feed it reads and our own export address to paste into the others.
// What the owner typed stays in a form when the server refuses it, its reason beside the form.
import { useId, useRef, useState, type FormEvent } from 'react';
import { avitoConnectSchema, cabinChannelsSchema } from '../../../schema/channels.ts';
import { nightsBetween } from '../../../schema/dates.ts';
import { formatNights, formatStayDates } from '../../../schema/format.ts';
import { moscowTime } from './CalendarCommon.tsx';
import { useBusyAction } from '../ui/useFailure.ts';
import { useCopy } from './CalendarExport.tsx';
import {
  avitoResultText,
  feedResultText,
  loadChannels,
  stayOrigin,
  syncChannels,
  type Channels,
  type ChannelsCabin,
  type Conflict,
  type SyncAnswer,
} from './channels.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { CodeInput, Field, fieldErrors, type FieldErrors } from '../ui/Field.tsx';
import { DigitsInput } from '../ui/Inputs.tsx';
import { tabHref } from '../ui/hash.ts';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { OwnerOnly, useIsOwner } from '../ui/role.tsx';

/** A refusal the owner should read beside the form (the server's or Avito's words), or null when a notice says it. */
function refusal(err: unknown, what: string): string | null {
  if (err instanceof SessionEndedError) return null;
  if (err instanceof ApiError && err.status >= 400 && err.status !== 401 && !err.message.startsWith('API Error'))
    return err.message;
  return describeError(err, what);
}

export function ChannelsView({
  conflicts,
  onConflicts,
}: {
  conflicts: Conflict[];
  onConflicts: (list: Conflict[]) => void;
}) {
  const { state, reload } = useLoad(loadChannels);
  // After a change the cards refresh quietly: the forms stay mounted with what the owner typed.
  const refresh = () => reload(true);
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  const data = state.data;
  return (
    <div className="channels">
      <ConflictList conflicts={conflicts} />
      <AvitoAccount avito={data.avito} onChanged={refresh} />
      <SyncAll
        cabins={data.cabins}
        onSynced={(answer) => {
          onConflicts(answer.conflicts);
          void refresh();
        }}
      />
      <section className="channels__cabins" aria-labelledby="channels-cabins-title">
        <h3 className="group__title" id="channels-cabins-title">
          Домики на площадках
        </h3>
        <p className="hint channels__lead">
          У каждого домика: его объявление на Авито, календари других площадок, которые читает сайт, и наша ссылка. Её
          вставляют в Суточно, RealtyCalendar и другие площадки с импортом календаря, чтобы даты, занятые здесь, были
          заняты и там.
        </p>
        {data.cabins.length === 0 ? (
          <p className="empty">Сначала добавьте домик во вкладке «Домики».</p>
        ) : (
          <ul className="channel-cabins">
            {data.cabins.map((cabin) => (
              <CabinChannels key={cabin.id} cabin={cabin} connected={data.avito.connected} onChanged={refresh} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** Nights claimed twice, in red: the cabin, the nights, both stays with where each came from. */
export function ConflictList({ conflicts }: { conflicts: Conflict[] }) {
  if (conflicts.length === 0) return null;
  return (
    <section className="conflicts" aria-labelledby="conflicts-title">
      <h3 className="conflicts__title" id="conflicts-title">
        <Icon name="x" />{' '}
        {conflicts.length === 1 ? 'Двойное бронирование' : `Двойные бронирования: ${conflicts.length}`}
      </h3>
      <p>
        Одни и те же ночи заняты дважды. Ничего не отменено само: свяжитесь с гостями, решите, кто заселится, и отмените
        лишнее бронирование там, где оно сделано.
      </p>
      <ul className="conflicts__list">
        {conflicts.map((c) => (
          <li
            key={`${c.cabinId}-${c.start}-${c.stays.map((s) => `${s.kind}${s.bookingId ?? s.label}${s.start}`).join('-')}`}
            className="conflicts__item"
          >
            <p className="conflicts__what">
              «{c.cabinName}»: {formatStayDates(c.start, c.end)}, {formatNights(nightsBetween(c.start, c.end))}
            </p>
            <ul className="conflicts__stays">
              {c.stays.map((s, i) => (
                <li key={i}>
                  {stayOrigin(s)}, {formatStayDates(s.start, s.end)}
                  {s.bookingId !== undefined && (
                    <>
                      {' '}
                      <a href={tabHref('bookings', s.bookingId)}>Открыть заявку №{s.bookingId}</a>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A number Avito gives (a profile, a listing) as the owner typed it: digits only, else refused by the schema. */
const digits = (text: string) => (/^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

type Keys = { clientId: string; clientSecret: string; userId: string };
const NO_KEYS: Keys = { clientId: '', clientSecret: '', userId: '' };

/** The Avito account: how to get its keys and the form, or the profile it is connected to. */
function AvitoAccount({ avito, onChanged }: { avito: Channels['avito']; onChanged: () => Promise<void> }) {
  // The keys are credentials: connecting, changing and disconnecting are the owner's.
  const owner = useIsOwner();
  const [busy, run] = useBusyAction();
  const notify = useNotify();
  const confirm = useConfirm();

  async function disconnect() {
    const ok = await confirm({
      title: 'Отключить Авито?',
      text: 'Брони с Авито перестанут занимать даты на сайте, номера объявлений сохранятся.',
      confirmLabel: 'Отключить',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      await call(client().admin.channels.avito.$delete());
      notify.success('Авито отключён');
      await onChanged();
    }, 'Не удалось отключить Авито');
  }

  return (
    <section className="group calendar-section channels__avito" aria-labelledby="avito-title">
      <h3 className="group__title" id="avito-title">
        Авито
      </h3>
      {avito.connected ? (
        <>
          <p className="channels__connected">
            <Icon name="check" /> Подключено: профиль {avito.userId}
          </p>
          <dl className="channels__keys">
            <div>
              <dt>Client ID</dt>
              <dd className="input--code">{avito.clientId}</dd>
            </div>
            <div>
              <dt>Client Secret</dt>
              <dd className="input--code">••••{avito.secretEnding}</dd>
            </div>
          </dl>
          {avito.error && (
            <p className="error-text channels__error">
              <Icon name="x" /> {avito.error}
            </p>
          )}
          {avito.chats?.refused && (
            <p className="error-text channels__error" data-avito-chats="refused">
              <Icon name="x" /> Чаты Авито в «Сообщениях» недоступны — Авито ответило: «{avito.chats.refused}». Брони,
              даты и цены синхронизируются как прежде.
            </p>
          )}
          {avito.chats?.error && (
            <p className="error-text channels__error" data-avito-chats="error">
              <Icon name="x" /> Чаты Авито: {avito.chats.error}
            </p>
          )}
          <p className="hint">
            Брони с Авито занимают даты здесь, а ваши занятые даты и цены уходят на Авито. Какое объявление какому
            домику — ниже, в карточках домиков. Сообщения гостей из чатов Авито — в «Сообщениях».
          </p>
          {owner && (
            <>
              <div className="calendar-actions">
                <button
                  type="button"
                  className="btn btn--danger"
                  disabled={busy}
                  aria-busy={busy}
                  onClick={() => void disconnect()}
                >
                  Отключить
                </button>
              </div>
              <details className="channels__rekey">
                <summary>Сменить ключи</summary>
                <AvitoKeysForm label="Сохранить новые ключи" onConnected={onChanged} />
              </details>
            </>
          )}
        </>
      ) : !owner ? (
        <>
          <p className="hint">Авито не подключён.</p>
          <OwnerOnly what="подключать Авито" />
        </>
      ) : (
        <>
          <p className="hint">
            Сайт будет читать брони с Авито и отправлять туда занятые даты и цены. Нужен профиль Авито с тарифом для
            профессионалов. Где взять ключи:
          </p>
          <ol className="channels__steps">
            <li>Откройте личный кабинет Авито на компьютере.</li>
            <li>Перейдите в «Для профессионалов» → «API».</li>
            <li>Скопируйте сюда Client ID, Client Secret и номер профиля.</li>
          </ol>
          <AvitoKeysForm label="Подключить Авито" onConnected={onChanged} />
        </>
      )}
    </section>
  );
}

function AvitoKeysForm({ label, onConnected }: { label: string; onConnected: () => Promise<void> }) {
  const [keys, setKeys] = useState<Keys>(NO_KEYS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const formId = useId();

  const set = (key: keyof Keys, value: string) => {
    setKeys((k) => ({ ...k, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    setRefused(null);
    const parsed = avitoConnectSchema.safeParse({ ...keys, userId: digits(keys.userId) });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await call(client().admin.channels.avito.$put({ json: parsed.data }));
      setKeys(NO_KEYS);
      notify.success(`Авито подключён: профиль ${parsed.data.userId}. Теперь укажите номера объявлений у домиков.`);
      await onConnected();
    } catch (err) {
      // Avito's refusal in its words, beside the form; what was typed stays.
      setRefused(refusal(err, 'Не удалось подключить Авито'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="channels__form" onSubmit={save} noValidate autoComplete="off">
      <div className="form-grid">
        <Field label="Client ID" error={errors.clientId || undefined}>
          {(p) => <CodeInput {...p} value={keys.clientId} onChange={(e) => set('clientId', e.target.value)} />}
        </Field>
        <Field label="Client Secret" error={errors.clientSecret || undefined}>
          {(p) => (
            <CodeInput
              {...p}
              type="password"
              value={keys.clientSecret}
              onChange={(e) => set('clientSecret', e.target.value)}
            />
          )}
        </Field>
        <Field label="Номер профиля" error={errors.userId || undefined} hint="Цифры, они видны там же, в разделе «API»">
          {(p) => <DigitsInput {...p} value={keys.userId} onChange={(e) => set('userId', e.target.value)} />}
        </Field>
      </div>
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        {busy ? 'Проверяем ключи…' : label}
      </button>
      <Refused id={`${formId}-refused`} refused={refused} />
    </form>
  );
}

/** Where a platform's refusal is said beside its form; there (and announced) before any refusal comes. */
function Refused({ id, refused }: { id: string; refused: string | null }) {
  return (
    <p className="channels__refused" role="alert" id={id}>
      {refused && (
        <span className="error-text">
          <Icon name="x" /> {refused}
        </span>
      )}
    </p>
  );
}

/** «Синхронизировать сейчас»: Avito read and sent, every feed read; what each came to, by cabin. */
function SyncAll({ cabins, onSynced }: { cabins: ChannelsCabin[]; onSynced: (answer: SyncAnswer) => void }) {
  const [busy, run] = useBusyAction();
  const [answer, setAnswer] = useState<SyncAnswer | null>(null);
  const notify = useNotify();

  async function sync() {
    await run(async () => {
      const res = await syncChannels();
      setAnswer(res);
      onSynced(res);
      const all = [...res.avito, ...res.feeds];
      const bad = all.filter((r) => !r.ok).length;
      if (all.length === 0) notify.info('Синхронизировать нечего: подключите Авито или календари площадок');
      else if (bad) notify.error(`Не получилось: ${bad} из ${all.length}. Причины — в итоге синхронизации.`);
      else
        notify.success(
          res.later
            ? `Синхронизировано. Остальные объявления Авито (${res.later}) обновятся сами в ближайшие минуты`
            : 'Синхронизировано',
        );
    }, 'Не удалось синхронизировать');
  }

  // The results by cabin, in the cards' order.
  const byCabin = answer
    ? cabins
        .map((c) => ({
          cabin: c,
          lines: [
            ...answer.avito.filter((r) => r.cabinId === c.id).map((r) => ({ ok: r.ok, text: avitoResultText(r) })),
            ...answer.feeds.filter((r) => r.cabinId === c.id).map((r) => ({ ok: r.ok, text: feedResultText(r) })),
          ],
        }))
        .filter((g) => g.lines.length > 0)
    : [];

  return (
    <section className="group calendar-section" aria-labelledby="sync-title">
      <h3 className="group__title" id="sync-title">
        Синхронизация
      </h3>
      <p className="hint">
        Брони с Авито и календари площадок читаются сами каждые 5 минут, а ваши занятые даты и цены уходят на Авито в
        течение минуты. Кнопка обменивается со всеми площадками прямо сейчас.
      </p>
      <div className="calendar-sync">
        <button type="button" className="btn btn--primary" disabled={busy} aria-busy={busy} onClick={() => void sync()}>
          <Icon name="refresh" /> {busy ? 'Синхронизация…' : 'Синхронизировать сейчас'}
        </button>
      </div>
      {answer && (
        <div className="channels__results">
          {byCabin.length === 0 ? (
            <p className="muted">Синхронизировать нечего: ни Авито, ни календари площадок не подключены.</p>
          ) : (
            <ul className="channels__result-list" aria-label="Итог синхронизации">
              {byCabin.map(({ cabin, lines }) => (
                <li key={cabin.id}>
                  <p className="channels__result-cabin">«{cabin.name}»</p>
                  <ul className="sync-results">
                    {lines.map((l, i) => (
                      <li key={i} className={l.ok ? 'sync-results__ok' : 'error-text'}>
                        <Icon name={l.ok ? 'check' : 'x'} /> {l.text}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
          {answer.conflicts.length === 0 ? (
            <p className="sync-results__ok">
              <Icon name="check" /> Двойных бронирований нет
            </p>
          ) : (
            <p className="error-text">
              <Icon name="x" /> Двойных бронирований: {answer.conflicts.length}. Они показаны в начале страницы.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** One cabin against every channel: Avito, each feed, our export address. */
function CabinChannels({
  cabin,
  connected,
  onChanged,
}: {
  cabin: ChannelsCabin;
  connected: boolean;
  onChanged: () => Promise<void>;
}) {
  const titleId = `channels-cabin-${cabin.id}`;
  return (
    <li className="channel-cabin">
      <article aria-labelledby={titleId}>
        <header className="channel-cabin__head">
          <h4 className="channel-cabin__name" id={titleId}>
            {cabin.name}
          </h4>
          {!cabin.active && <span className="badge badge--muted">скрыт</span>}
        </header>
        <AvitoLink cabin={cabin} connected={connected} onChanged={onChanged} />
        <section className="channel">
          <h5 className="channel__title">Календари площадок (iCal)</h5>
          {cabin.feeds.length === 0 ? (
            <p className="muted">Не подключены.</p>
          ) : (
            <ul className="channel__feeds">
              {cabin.feeds.map((f) => (
                <FeedRow key={f.index} cabin={cabin} feed={f} onChanged={onChanged} />
              ))}
            </ul>
          )}
          <a className="channel__more" href={tabHref('calendar', cabin.id)}>
            {cabin.feeds.length === 0 ? 'Добавить календарь' : 'Изменить календари'}
            <span className="visually-hidden"> домика «{cabin.name}»</span>
          </a>
        </section>
        <ExportLink cabin={cabin} />
      </article>
    </li>
  );
}

/** The cabin's Avito listing: when it last sent and read, its error, and the form to link, change or unlink it. */
function AvitoLink({
  cabin,
  connected: avitoOn,
  onChanged,
}: {
  cabin: ChannelsCabin;
  connected: boolean;
  onChanged: () => Promise<void>;
}) {
  const linked = cabin.avitoItemId;
  // Which listing is which cabin is the owner's to change: a manager reads it.
  const owner = useIsOwner();
  const connected = avitoOn && owner;
  const [editing, setEditing] = useState(false);
  const [item, setItem] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState<'link' | 'unlink' | null>(null);
  const notify = useNotify();
  const confirm = useConfirm();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);

  const put = (avitoItemId: number | null) =>
    call(client().admin.cabins[':id'].channels.$put({ param: { id: String(cabin.id) }, json: { avitoItemId } }));

  async function link(e: FormEvent) {
    e.preventDefault();
    setRefused(null);
    const text = item.trim();
    const parsed = cabinChannelsSchema.safeParse({ avitoItemId: digits(text) });
    if (!parsed.success || parsed.data.avitoItemId === null) {
      setRefused(parsed.error?.issues[0]?.message ?? null);
      input.current?.focus();
      return;
    }
    setBusy('link');
    try {
      const res = await put(parsed.data.avitoItemId);
      const bad = res.results.filter((r) => !r.ok);
      const said = res.results
        .map((r) => (r.ok ? r.detail : r.error))
        .filter(Boolean)
        .join('; ');
      if (bad.length)
        notify.error(`Объявление №${text} связано с «${cabin.name}», но обмен с Авито не удался: ${said}`);
      else notify.success(`Объявление №${text} связано с «${cabin.name}»${said ? `: ${said}` : ''}`);
      setItem('');
      setEditing(false);
      await onChanged();
    } catch (err) {
      // Avito's words (not the owner's listing, no such listing), beside the form; the number stays.
      setRefused(refusal(err, 'Не удалось связать объявление'));
      input.current?.focus();
    } finally {
      setBusy(null);
    }
  }

  async function unlink() {
    const ok = await confirm({
      title: 'Отвязать объявление?',
      text: `«${cabin.name}» перестанет обмениваться с объявлением №${linked} на Авито: его брони больше не будут занимать даты здесь, а занятые даты и цены перестанут уходить туда.`,
      confirmLabel: 'Отвязать',
      cancelLabel: 'Оставить',
      danger: true,
    });
    if (!ok) return;
    setRefused(null);
    setBusy('unlink');
    try {
      await put(null);
      notify.success(`Объявление Авито отвязано от «${cabin.name}»`);
      setEditing(false);
      await onChanged();
    } catch (err) {
      setRefused(refusal(err, 'Не удалось отвязать объявление'));
    } finally {
      setBusy(null);
    }
  }

  const a = cabin.avito;
  const showForm = connected && (linked === null || editing);
  const of = <span className="visually-hidden"> «{cabin.name}»</span>;
  return (
    <section className="channel">
      <h5 className="channel__title">Авито</h5>
      {linked === null ? (
        <p className="muted">{avitoOn ? 'Не связан с объявлением.' : 'Не связан: сначала подключите Авито выше.'}</p>
      ) : (
        <div>
          <p className="channel__state">Объявление №{linked}</p>
          <p className="channel__times muted">
            {a.lastPullAt ? `Брони прочитаны ${moscowTime(a.lastPullAt)}` : 'Брони ещё не читались'}
            <br />
            {a.lastPushAt ? `Даты и цены отправлены ${moscowTime(a.lastPushAt)}` : 'Даты и цены ещё не отправлялись'}
          </p>
        </div>
      )}
      {a.error && (
        <p className="error-text channels__error">
          <Icon name="x" /> {a.error}
        </p>
      )}
      {!avitoOn && linked !== null && (
        <p className="hint">Авито отключён: подключите его выше, чтобы обмен возобновился.</p>
      )}
      {showForm && (
        <form className="channel__form" onSubmit={link} noValidate>
          <div className="field">
            <label className="label" htmlFor={`${id}-item`}>
              {linked === null ? 'Номер объявления на Авито' : 'Новый номер объявления'}
              {of}
            </label>
            <div className="channel__row">
              <input
                id={`${id}-item`}
                ref={input}
                className="input"
                inputMode="numeric"
                autoComplete="off"
                value={item}
                aria-describedby={`${id}-hint${refused ? ` ${id}-refused` : ''}`}
                aria-invalid={!!refused}
                onChange={(e) => {
                  setItem(e.target.value);
                  setRefused(null);
                }}
              />
              <button type="submit" className="btn btn--primary" disabled={busy !== null} aria-busy={busy === 'link'}>
                {busy === 'link' ? 'Проверяем…' : 'Связать'}
                {of}
              </button>
            </div>
            <span className="hint" id={`${id}-hint`}>
              Цифры в конце адреса объявления, после «_»
            </span>
          </div>
          <Refused id={`${id}-refused`} refused={refused} />
        </form>
      )}
      {linked !== null && owner && (
        <div className="calendar-actions">
          {connected && (
            <button
              type="button"
              className="btn btn--secondary"
              aria-expanded={editing}
              onClick={() => setEditing((on) => !on)}
            >
              {editing ? 'Не менять' : 'Сменить'}
              <span className="visually-hidden"> объявление «{cabin.name}»</span>
            </button>
          )}
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy !== null}
            aria-busy={busy === 'unlink'}
            onClick={() => void unlink()}
          >
            Отвязать{of}
          </button>
        </div>
      )}
      {!showForm && refused && (
        <p className="error-text channels__error" role="alert">
          <Icon name="x" /> {refused}
        </p>
      )}
    </section>
  );
}

/** One iCal feed: its last good read, its error and, when it came back empty, the owner's «yes, it is». */
function FeedRow({
  cabin,
  feed,
  onChanged,
}: {
  cabin: ChannelsCabin;
  feed: ChannelsCabin['feeds'][number];
  onChanged: () => Promise<void>;
}) {
  const owner = useIsOwner();
  const [busy, run] = useBusyAction();
  const notify = useNotify();
  const confirm = useConfirm();

  async function acceptEmpty() {
    const ok = await confirm({
      title: 'Принять пустой календарь?',
      text: `«${cabin.name}»: календарь «${feed.name}» пришёл пустым. Если на этой площадке действительно всё свободно, прежние занятые даты из него освободятся и гости смогут их забронировать.`,
      confirmLabel: 'Принять пустой календарь',
      cancelLabel: 'Оставить даты занятыми',
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      await call(
        client().admin.feeds[':cabinId'][':index']['accept-empty'].$post({
          param: { cabinId: String(cabin.id), index: String(feed.index) },
        }),
      );
      notify.success(`Календарь «${feed.name}» принят пустым: его прежние даты свободны`);
      await onChanged();
    }, 'Не удалось принять пустой календарь');
  }

  return (
    <li className="channel__feed">
      <p className={feed.error || !feed.lastSuccessAt ? 'channel__feed-name' : 'channel__feed-name sync-results__ok'}>
        {feed.error ? null : <Icon name={feed.lastSuccessAt ? 'check' : 'clock'} />}
        <span>
          <b>«{feed.name}»</b>:{' '}
          {feed.lastSuccessAt
            ? `${feed.error ? 'последняя удачная загрузка' : 'загружен'} ${moscowTime(feed.lastSuccessAt)}`
            : 'ещё ни разу не загрузился'}
        </span>
      </p>
      {feed.error && (
        <p className="error-text channels__error">
          <Icon name="x" /> {feed.error}
        </p>
      )}
      {feed.emptyHeld && owner && (
        <button
          type="button"
          className="btn btn--secondary"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void acceptEmpty()}
        >
          Принять пустой календарь<span className="visually-hidden"> «{feed.name}»</span>
        </button>
      )}
    </li>
  );
}

/** Our own address for the others: their import of it keeps the nights sold here busy there. */
function ExportLink({ cabin }: { cabin: ChannelsCabin }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = useCopy(input, `Ссылка «${cabin.name}» скопирована`);
  const id = useId();
  return (
    <div className="channel">
      {cabin.exportUrl ? (
        <>
          <label className="channel__title" htmlFor={`${id}-url`}>
            Наша ссылка для площадок<span className="visually-hidden"> «{cabin.name}»</span>
          </label>
          <div className="channel__row">
            <input
              id={`${id}-url`}
              ref={input}
              className="input input--code"
              readOnly
              value={cabin.exportUrl}
              onFocus={(e) => e.target.select()}
            />
            <button type="button" className="btn btn--secondary" onClick={() => void copy(cabin.exportUrl!)}>
              Скопировать<span className="visually-hidden"> ссылку «{cabin.name}»</span>
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="channel__title">Наша ссылка для площадок</p>
          <p className="muted">Ссылка появится после обновления страницы.</p>
        </>
      )}
    </div>
  );
}
