import { type FormEvent, useState } from 'react';
import { MONTHS_GENITIVE, formatGuests, formatPrice } from '../../../schema/format.ts';
import { TASK_KIND_LABELS, TASK_KINDS, TASK_NOTE_MAX, type TaskKind } from '../../../schema/tasks.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Field } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';
import { useIsOwner } from '../ui/role.tsx';
import { DepositActions } from '../bookings/DepositActions.tsx';

// «Сегодня» (docs/features.md): the owner's day on a phone. Who arrives, who leaves and who stays
// today and tomorrow, with the time, the guests, what is paid and left to pay and a number to call;
// «Заехал», «Выехал» and «Убрано» are one tap each, and a task is added in place. A failed tap
// changes nothing on screen but says why; the new task's form keeps what was typed until it is saved.

const loadDay = () => call(client().admin.today.$get({ query: {} }));
const loadCabins = () => call(client().admin.cabins.$get());
type Day = Awaited<ReturnType<typeof loadDay>>;
type DayStay = Day['arrivals'][number];
type Task = Day['tasks'][number];
type Cabin = Awaited<ReturnType<typeof loadCabins>>[number];

const dayText = (date: string) => `${Number(date.slice(8))} ${MONTHS_GENITIVE[Number(date.slice(5, 7)) - 1]}`;
const money = (kopecks: number) => formatPrice(Math.round(kopecks / 100));
const endOf = (s: DayStay) => s.departedOn ?? s.checkOut;
/** A phone as a tel: address: digits and a leading plus only. */
const telOf = (phone: string) => `tel:${phone.trim().startsWith('+') ? '+' : ''}${phone.replace(/\D/g, '')}`;

/** «Сегодня»: the day and the next, each with its arrivals, departures, stays and tasks. */
export function TodayTab() {
  const day = useLoad(loadDay);
  const cabins = useLoad(loadCabins);
  const owner = useIsOwner();

  if (day.state.status === 'loading') return <Loading />;
  if (day.state.status === 'error') return <LoadError error={day.state.error} onRetry={() => void day.reload()} />;
  const data = day.state.data;
  const refresh = () => void day.reload(true);
  const replaceStay = (id: number, change: Partial<DayStay>) =>
    day.setData((d) => {
      const patch = (list: DayStay[]) => list.map((s) => (s.id === id ? { ...s, ...change } : s));
      return { ...d, arrivals: patch(d.arrivals), departures: patch(d.departures), staying: patch(d.staying) };
    });
  const replaceTask = (task: Task) =>
    day.setData((d) => ({ ...d, tasks: d.tasks.map((t) => (t.id === task.id ? task : t)) }));

  return (
    <div className="today">
      {[data.date, data.next].map((date, i) => (
        <DayView
          key={date}
          date={date}
          title={i === 0 ? `Сегодня, ${dayText(date)}` : `Завтра, ${dayText(date)}`}
          today={i === 0}
          data={data}
          onStay={replaceStay}
          onTask={replaceTask}
          onChanged={refresh}
        />
      ))}
      {data.deposits.length > 0 && (
        <section className="today__day" aria-labelledby="today-deposits">
          <h3 className="today__title" id="today-deposits">
            Залоги
          </h3>
          <ul className="today__list">
            {data.deposits.map((d) => (
              <li key={d.bookingId} className="today__item">
                <p>
                  <b>{d.cabinName}</b>
                  {d.guestName && <> · {d.guestName}</>}
                </p>
                <DepositActions bookingId={d.bookingId} deposit={d} owner={owner} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <AddTask
        cabins={cabins.state.status === 'loaded' ? cabins.state.data : []}
        days={[data.date, data.next]}
        onAdded={refresh}
      />
    </div>
  );
}

type DayProps = {
  date: string;
  title: string;
  today: boolean;
  data: Day;
  onStay: (id: number, change: Partial<DayStay>) => void;
  onTask: (task: Task) => void;
  onChanged: () => void;
};

function DayView({ date, title, today, data, onStay, onTask, onChanged }: DayProps) {
  const arrivals = data.arrivals.filter((s) => s.checkIn === date);
  const departures = data.departures.filter((s) => endOf(s) === date);
  const staying = data.staying.filter((s) => s.checkIn < date && date < endOf(s));
  const tasks = data.tasks.filter((t) => t.due === date);
  const id = `today-${date}`;
  return (
    <section className="today__day" aria-labelledby={id}>
      <h3 className="today__title" id={id}>
        {title}
      </h3>
      <StayList
        heading="Заезды"
        empty="Заездов нет"
        stays={arrivals}
        kind="arrival"
        today={today}
        onStay={onStay}
        onChanged={onChanged}
      />
      <StayList
        heading="Выезды"
        empty="Выездов нет"
        stays={departures}
        kind="departure"
        today={today}
        onStay={onStay}
        onChanged={onChanged}
      />
      <StayList
        heading="Проживают"
        empty="Никто не живёт"
        stays={staying}
        kind="staying"
        today={today}
        onStay={onStay}
        onChanged={onChanged}
      />
      <div className="today__group">
        <h4 className="today__heading">Задачи</h4>
        {tasks.length === 0 ? (
          <p className="today__empty">Задач нет</p>
        ) : (
          <ul className="today__list">
            {tasks.map((t) => (
              <TaskItem key={t.id} task={t} onTask={onTask} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

type StayKind = 'arrival' | 'departure' | 'staying';

function StayList(props: {
  heading: string;
  empty: string;
  stays: DayStay[];
  kind: StayKind;
  today: boolean;
  onStay: DayProps['onStay'];
  onChanged: () => void;
}) {
  const { heading, empty, stays } = props;
  return (
    <div className="today__group">
      <h4 className="today__heading">{heading}</h4>
      {stays.length === 0 ? (
        <p className="today__empty">{empty}</p>
      ) : (
        <ul className="today__list">
          {stays.map((s) => (
            <StayItem key={s.id} stay={s} {...props} />
          ))}
        </ul>
      )}
    </div>
  );
}

function StayItem({
  stay: s,
  kind,
  today,
  onStay,
  onChanged,
}: {
  stay: DayStay;
  kind: StayKind;
  today: boolean;
  onStay: DayProps['onStay'];
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const confirm = useConfirm();
  const time =
    kind === 'arrival'
      ? `заезд с ${s.checkInTime}`
      : kind === 'departure'
        ? `выезд до ${s.checkOutTime}`
        : `до ${dayText(endOf(s))}`;

  async function markStay(body: { arrived: true } | { departed: true }, done: string, failed: string) {
    setBusy(true);
    try {
      const answer = await call(
        client().admin.bookings[':id'].stay.$put({ param: { id: String(s.id) }, json: body as { arrived: true } }),
      );
      onStay(s.id, { arrivedAt: answer.arrivedAt, departedAt: answer.departedAt, departedOn: answer.departedOn });
      notify.success(answer.changed ? done : `${done} (уже было отмечено)`);
      onChanged();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      notify.error(describeError(err, failed));
    } finally {
      setBusy(false);
    }
  }

  async function departEarly() {
    const ok = await confirm({
      title: 'Гость выехал раньше?',
      text: `«${s.cabinName}»: ночи с сегодняшней станут свободны на сайте, в календаре и на площадках.`,
      confirmLabel: 'Выехал сегодня',
      cancelLabel: 'Отмена',
    });
    if (ok) await markStay({ departed: true }, `${s.name}: выезд отмечен`, 'Не удалось отметить выезд');
  }

  return (
    <li className="today__item">
      <div className="today__what">
        <p className="today__cabin">{s.cabinName}</p>
        <p className="today__guest">
          {s.name}, {formatGuests(s.guests)}, {time}
        </p>
        <p className="today__money">
          Итого {formatPrice(s.total)} · оплачено {money(s.paid)} ·{' '}
          {/* A one-letter preposition never ends a line: «к» stays with «оплате». */}
          {s.toPay > 0 ? <strong>к&nbsp;оплате {money(s.toPay)}</strong> : 'оплачено полностью'}
        </p>
      </div>
      <div className="today__actions">
        {s.phone && (
          // The guest's name for a screen reader after the visible words (a hidden word inside them left a gap on screen).
          <a
            className="btn btn--secondary btn--sm"
            href={telOf(s.phone)}
            aria-label={`Позвонить: ${s.phone}, ${s.name}`}
          >
            Позвонить: {s.phone}
          </a>
        )}
        {kind === 'arrival' && (
          <StayMark
            label="Заехал"
            done={Boolean(s.arrivedAt)}
            today={today}
            busy={busy}
            name={s.name}
            onMark={() => void markStay({ arrived: true }, `${s.name}: заезд отмечен`, 'Не удалось отметить заезд')}
          />
        )}
        {kind === 'departure' && (
          <StayMark
            label="Выехал"
            done={Boolean(s.departedAt)}
            today={today}
            busy={busy}
            name={s.name}
            onMark={() => void markStay({ departed: true }, `${s.name}: выезд отмечен`, 'Не удалось отметить выезд')}
          />
        )}
        {kind === 'staying' && today && !s.departedAt && (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={busy}
            aria-busy={busy}
            aria-label={`Выехал раньше: ${s.name}`}
            onClick={() => void departEarly()}
          >
            Выехал раньше
          </button>
        )}
      </div>
    </li>
  );
}

function TaskItem({ task: t, onTask }: { task: Task; onTask: (task: Task) => void }) {
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const doneLabel = t.kind === 'cleaning' ? 'Убрано' : 'Сделано';

  async function toggle() {
    setBusy(true);
    try {
      const updated = await call(
        client().admin.tasks[':id'].$put({ param: { id: String(t.id) }, json: { done: !t.done } }),
      );
      onTask(updated);
      notify.success(
        updated.done ? `«${t.cabinName}»: ${doneLabel.toLowerCase()}` : `«${t.cabinName}»: задача снова открыта`,
      );
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      notify.error(describeError(err, 'Не удалось сохранить задачу'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`today__item today__task${t.done ? ' is-done' : ''}`}>
      <div className="today__what">
        <p className="today__cabin">{t.cabinName}</p>
        <p className="today__guest">
          {TASK_KIND_LABELS[t.kind]}
          {t.note && `: ${t.note}`}
          {t.done && ` — ${doneLabel.toLowerCase()}`}
        </p>
        {t.photo && <TaskPhoto url={t.photo} cabinName={t.cabinName} />}
      </div>
      <div className="today__actions">
        <button
          type="button"
          className={`btn btn--sm ${t.done ? 'btn--ghost' : 'btn--primary'}`}
          aria-pressed={t.done}
          aria-label={`${doneLabel}: «${t.cabinName}»`}
          disabled={busy}
          aria-busy={busy}
          onClick={() => void toggle()}
        >
          {doneLabel}
        </button>
      </div>
    </li>
  );
}

/** The photo taken when the task was done: a small picture that opens the whole one (the panel's own address, never /media/). */
export function TaskPhoto({ url, cabinName }: { url: string; cabinName: string }) {
  return (
    <a className="today__photo" href={url} target="_blank" rel="noopener">
      <img src={url} alt={`Фото: «${cabinName}»`} width={72} height={72} loading="lazy" decoding="async" />
    </a>
  );
}

function AddTask({ cabins, days, onAdded }: { cabins: Cabin[]; days: string[]; onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  const [cabinId, setCabinId] = useState('');
  const [due, setDue] = useState(days[0]!);
  const [kind, setKind] = useState<TaskKind>('cleaning');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const notify = useNotify();

  async function save(e: FormEvent) {
    e.preventDefault();
    const cabin = Number(cabinId || cabins[0]?.id);
    if (!cabin) {
      setError('Выберите домик');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await call(client().admin.tasks.$post({ json: { cabinId: cabin, due, kind, note } }));
      notify.success('Задача добавлена');
      // Cleared only once saved: a failed request keeps what was typed.
      setNote('');
      setOpen(false);
      onAdded();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      setError(describeError(err, 'Не удалось добавить задачу'));
    } finally {
      setBusy(false);
    }
  }

  if (!open)
    return (
      <button type="button" className="btn btn--secondary today__add" onClick={() => setOpen(true)}>
        Добавить задачу
      </button>
    );
  return (
    <form className="today__form" onSubmit={(e) => void save(e)} aria-labelledby="today-add-title">
      <h3 className="today__title" id="today-add-title">
        Новая задача
      </h3>
      <Field id="today-task-cabin" label="Домик" required>
        {(p) => (
          <select
            {...p}
            className="input"
            value={cabinId || String(cabins[0]?.id ?? '')}
            onChange={(e) => setCabinId(e.target.value)}
          >
            {cabins.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="today-task-due" label="Когда" required>
        {(p) => (
          <input {...p} className="input" type="date" value={due} required onChange={(e) => setDue(e.target.value)} />
        )}
      </Field>
      <Field id="today-task-kind" label="Что сделать" required>
        {(p) => (
          <select {...p} className="input" value={kind} onChange={(e) => setKind(e.target.value as TaskKind)}>
            {TASK_KINDS.map((k) => (
              <option key={k} value={k}>
                {TASK_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="today-task-note" label="Заметка">
        {(p) => (
          <textarea
            {...p}
            className="input"
            rows={2}
            maxLength={TASK_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        )}
      </Field>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      <div className="today__form-actions">
        <button type="button" className="btn btn--secondary" onClick={() => setOpen(false)}>
          Свернуть
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          Добавить
        </button>
      </div>
    </form>
  );
}

/** «Заехал» or «Выехал»: said once marked; a button on the day itself, named with the guest for a screen reader. */
function StayMark(p: {
  label: string;
  done: boolean;
  today: boolean;
  busy: boolean;
  name: string;
  onMark: () => void;
}) {
  if (p.done) return <span className="today__done">{p.label}</span>;
  if (!p.today) return null;
  return (
    <button
      type="button"
      className="btn btn--primary btn--sm"
      disabled={p.busy}
      aria-busy={p.busy}
      aria-label={`${p.label}: ${p.name}`}
      onClick={p.onMark}
    >
      {p.label}
    </button>
  );
}
