// «Сообщения»: every conversation with a guest, newest first, the unread ones in bold with their
// count; a thread opens at «#messages/ID» to read and answer. What the owner types is kept in the
// browser until the server has queued it, so a failed send or a closed tab loses nothing.
import { useEffect, useRef, useState } from 'react';
import { MAX_TEXT_LIMIT } from '../../../schema/max.ts';
import {
  MESSAGE_STATUS_LABELS,
  REPLY_MAX_LENGTH,
  THREAD_CHANNEL_LABELS,
  type MessageView,
  type ThreadView,
} from '../../../schema/threads.ts';
import { formatDate } from '../../../schema/format.ts';
import { ApiError, call, client, describeError, SessionEndedError } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { tabHref, useHashDetail } from '../ui/hash.ts';
import { useNotify } from '../ui/Notice.tsx';
import { useWhileVisible } from '../ui/useWhileVisible.ts';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';
import { ReplyTemplatesPage } from './ReplyTemplatesForm.tsx';

const timeFmt = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
});
const formatTime = (iso: string) => timeFmt.format(new Date(iso));

/**
 * How often an open list or thread looks for what came meanwhile: a guest's message shows within
 * 5 s with no reload. A hidden tab does not look (useWhileVisible), so a panel left open in the
 * background costs nothing.
 */
export const REFRESH_MS = 4_000;

/** The guests' unread messages over all threads: the number on the tab. */
export const countUnread = (threads: ThreadView[]) => threads.reduce((n, t) => n + t.unread, 0);
export const loadUnreadThreads = () => call(client().admin.threads.$get({ query: { unread: '1', limit: '100' } }));

/** «#messages/templates»: the owner's templates and the automatic answer. */
const TEMPLATES = 'templates';

export function MessagesTab({ onCount }: { onCount: (n: number) => void }) {
  const detail = useHashDetail();
  if (detail === TEMPLATES) return <ReplyTemplatesPage />;
  const id = /^[1-9]\d{0,9}$/.test(detail) ? Number(detail) : null;
  return id === null ? <ThreadList onCount={onCount} /> : <ThreadPage key={id} id={id} onCount={onCount} />;
}

function ThreadList({ onCount }: { onCount: (n: number) => void }) {
  const { state, reload } = useLoad(() => call(client().admin.threads.$get({ query: {} })));
  useWhileVisible(() => void reload(true), REFRESH_MS);
  useEffect(() => {
    if (state.status === 'loaded') onCount(countUnread(state.data));
  }, [state, onCount]);

  const templatesLink = (
    <p>
      <a className="btn btn--ghost btn--sm" href={tabHref('messages', TEMPLATES)}>
        Шаблоны и автоответ
      </a>
    </p>
  );
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void reload()} />;
  if (state.data.length === 0)
    return (
      <>
        {templatesLink}
        <AvitoChatsNotice />
        <p className="empty">
          Сообщений пока нет. Когда гость напишет боту Telegram для гостей («Настройки» → «Telegram для гостей»), боту
          MAX («Настройки» → «Уведомления в MAX») или в чат Авито по объявлению домика, переписка появится здесь.
        </p>
      </>
    );
  return (
    <>
      {templatesLink}
      <AvitoChatsNotice />
      <ul className="threads" aria-label="Переписки с гостями">
        {state.data.map((t) => (
          <li key={t.id}>
            <a
              className={`threads__item${t.unread > 0 ? ' threads__item--unread' : ''}`}
              href={tabHref('messages', t.id)}
              data-thread={t.id}
            >
              <span className="threads__name">{t.guestName || 'Гость'}</span>
              {t.unread > 0 && (
                <span className="admin-nav__count threads__count">
                  {t.unread}
                  <span className="visually-hidden"> непрочитанных</span>
                </span>
              )}
              <span className="threads__meta">
                {THREAD_CHANNEL_LABELS[t.channel]}
                {t.bookingId !== undefined && ` · заявка №${t.bookingId}`}
                {t.avitoBooking &&
                  ` · бронь на Авито ${formatDate(t.avitoBooking.checkIn)} — ${formatDate(t.avitoBooking.checkOut)}`}{' '}
                · <time dateTime={t.lastAt}>{formatTime(t.lastAt)}</time>
              </span>
              {t.waitingSince && (
                <span className="threads__waiting">
                  Ждёт ответа с <time dateTime={t.waitingSince}>{formatTime(t.waitingSince)}</time>
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Why Avito's chats are not here, when they are not: Avito's own words refusing the Messenger API to
 * the account (its plan), or the last failure of reading them. Nothing while they work, or when the
 * state cannot be read.
 */
function AvitoChatsNotice() {
  const [chats, setChats] = useState<{ refused?: string; error?: string } | null>(null);
  useEffect(() => {
    let live = true;
    call(client().admin.channels.$get())
      .then((answer) => {
        if (live) setChats(answer.avito.chats ?? null);
      })
      .catch(() => {
        // Not the owner's to see, or not reachable now: the list shows without it.
      });
    return () => {
      live = false;
    };
  }, []);
  if (chats?.refused)
    return (
      <p className="alert alert--warning" role="note" data-avito-chats="refused">
        Чаты Авито сюда не приходят — Авито ответило: «{chats.refused}». Отвечайте гостям в приложении Авито; брони,
        даты и цены синхронизируются как прежде.
      </p>
    );
  if (chats?.error)
    return (
      <p className="alert alert--warning" role="note" data-avito-chats="error">
        Чаты Авито: {chats.error}
      </p>
    );
  return null;
}

/** The text being written to a thread, kept in the browser until the server queued it. */
const draftKey = (id: number) => `kaspiy-admin-reply-${id}`;
type Draft = { text: string; key: string };
const newKey = () => crypto.randomUUID().replaceAll('-', '');
function readDraft(id: number): Draft {
  try {
    const raw = localStorage.getItem(draftKey(id));
    const draft = raw ? (JSON.parse(raw) as Partial<Draft>) : {};
    return { text: typeof draft.text === 'string' ? draft.text : '', key: draft.key || newKey() };
  } catch {
    return { text: '', key: newKey() };
  }
}
function keepDraft(id: number, draft: Draft | null) {
  try {
    if (draft && draft.text) localStorage.setItem(draftKey(id), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(id));
  } catch {
    // No storage (a private window): the text stays in the field while the page is open.
  }
}

function ThreadPage({ id, onCount }: { id: number; onCount: (n: number) => void }) {
  const notify = useNotify();
  const { state, reload, setData } = useLoad(() =>
    call(client().admin.threads[':id'].$get({ param: { id: String(id) } })),
  );
  const [draft, setDraft] = useState<Draft>(() => readDraft(id));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const end = useRef<HTMLLIElement>(null);

  const unread = state.status === 'loaded' ? state.data.thread.unread : 0;
  // Opened means read: the guest's messages here stop counting on the tab.
  useEffect(() => {
    if (unread === 0) return;
    call(client().admin.threads[':id'].read.$post({ param: { id: String(id) } }))
      .then(() => {
        setData((d) => ({ ...d, thread: { ...d.thread, unread: 0 } }));
        return loadUnreadThreads().then((list) => onCount(countUnread(list)));
      })
      .catch(() => {});
  }, [id, unread, setData, onCount]);
  useWhileVisible(() => void reload(true), REFRESH_MS);
  const count = state.status === 'loaded' ? state.data.messages.length : 0;
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView({ block: 'nearest' });
  }, [count]);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void reload()} />;
  const { thread, messages, templates } = state.data;

  function edit(text: string) {
    const next = { ...draft, text };
    setDraft(next);
    keepDraft(id, next);
    setError('');
  }

  async function send(e: React.FormEvent) {
    e.preventDefault();
    const text = draft.text.trim();
    if (!text) {
      setError('Напишите текст ответа');
      return;
    }
    setSending(true);
    setError('');
    try {
      const sent = await call(
        client().admin.threads[':id'].messages.$post({ param: { id: String(id) }, json: { text, key: draft.key } }),
      );
      // Queued on the server: the field is emptied, and the next answer gets a name of its own.
      const next = { text: '', key: newKey() };
      setDraft(next);
      keepDraft(id, null);
      setData((d) => ({
        ...d,
        messages: d.messages.some((m) => m.id === sent.id) ? d.messages : [...d.messages, sent],
      }));
      notify.success('Ответ поставлен в очередь отправки');
      void reload(true);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      // The text stays in the field (and in the browser); a retry after a lost answer reuses its
      // name, so the server sends it once. A refusal gets a new name: the next try is a new answer.
      if (err instanceof ApiError && err.status !== 0) {
        const next = { ...draft, key: newKey() };
        setDraft(next);
        keepDraft(id, next);
      }
      setError(describeError(err, 'Ответ не отправлен, текст сохранён'));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="thread" aria-labelledby="thread-title">
      <p>
        <a className="btn btn--ghost btn--sm" href={tabHref('messages')}>
          ← Все сообщения
        </a>
      </p>
      <h3 id="thread-title" className="thread__title">
        {thread.guestName || 'Гость'}
      </h3>
      <p className="thread__meta">
        {THREAD_CHANNEL_LABELS[thread.channel]}
        {thread.bookingId !== undefined && (
          <>
            {' · '}
            <a href={tabHref('bookings', thread.bookingId)}>заявка №{thread.bookingId}</a>
          </>
        )}
      </p>
      <ol className="chat" aria-label="Сообщения переписки">
        {messages.map((m, i) => (
          <li
            key={m.id}
            ref={i === messages.length - 1 ? end : undefined}
            className={`chat__msg chat__msg--${m.direction}`}
            data-status={m.status}
          >
            <p className="chat__who visually-hidden">{m.direction === 'in' ? 'Гость:' : 'Вы:'}</p>
            <p className="chat__text">{m.text}</p>
            <p className="chat__meta">
              <time dateTime={m.at}>{formatTime(m.at)}</time>
              {m.auto && ' · автоматическое'}
              {m.direction === 'out' && <MessageStatus message={m} />}
            </p>
          </li>
        ))}
      </ol>
      <form className="thread__reply" onSubmit={(e) => void send(e)} noValidate>
        {templates.length > 0 && (
          <div className="thread__templates" role="group" aria-label="Вставить шаблон">
            {templates.map((t) => (
              <button
                key={t.name}
                type="button"
                className="btn btn--ghost btn--sm"
                // Into an empty field as it is; after what is typed, on a line of its own.
                onClick={() => edit(draft.text.trim() ? `${draft.text.trimEnd()}\n${t.text}` : t.text)}
              >
                {t.name}
              </button>
            ))}
          </div>
        )}
        <Field label="Ответ гостю" error={error} id="thread-reply">
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={4}
              // MAX takes less in one message than Telegram: the server refuses a longer answer there.
              maxLength={thread.channel === 'max' ? MAX_TEXT_LIMIT : REPLY_MAX_LENGTH}
              value={draft.text}
              onChange={(e) => edit(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn btn--primary" disabled={sending}>
          {sending ? 'Отправка…' : 'Отправить'}
        </button>
      </form>
    </section>
  );
}

function MessageStatus({ message: m }: { message: MessageView }) {
  const label = MESSAGE_STATUS_LABELS[m.status];
  return (
    <span className={`chat__status chat__status--${m.status}`}>
      {' · '}
      {label}
      {m.error && (m.status === 'failed' ? `: ${m.error}` : ` (последняя попытка: ${m.error})`)}
    </span>
  );
}
