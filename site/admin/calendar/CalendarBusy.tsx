// «Занятые даты»: every busy range of the next 12 months with where it comes from, the form that
// closes nights by hand and the button that opens them again.
import { useState, type FormEvent } from 'react';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { BlockNoteField, rangeText, type Calendar } from './CalendarCommon.tsx';
import { useBusyAction, useFailure } from '../ui/useFailure.ts';
import { guestsAndPrice } from './channels.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';

type Range = Calendar['busy'][number];
const EMPTY = { start: '', end: '', note: '' };

/** Where a busy range comes from, as the owner says it. */
export function sourceText(r: Range): string {
  if (r.source === 'booking') return r.label ? `Бронирование: ${r.label}` : 'Бронирование';
  if (r.source === 'hold') return r.label ? `Ждёт оплаты: ${r.label}` : 'Ждёт оплаты';
  if (r.source === 'block') return r.label ? `Закрыто вручную: ${r.label}` : 'Закрыто вручную';
  if (r.source === 'channel') {
    const facts = guestsAndPrice(r);
    return `Бронирование на площадке: ${r.label}${facts ? `, ${facts}` : ''}`;
  }
  return `Из календаря: ${r.label}`;
}

export function CalendarBusy({
  cabinId,
  cal,
  reload,
}: {
  cabinId: number;
  cal: Calendar;
  reload: () => Promise<void>;
}) {
  const today = todayInMoscow();
  const [block, setBlock] = useState(EMPTY);
  const [busy, run] = useBusyAction();
  const [removing, setRemoving] = useState<number | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const confirm = useConfirm();

  async function add(e: FormEvent) {
    e.preventDefault();
    await run(async () => {
      await call(client().admin.cabins[':id'].blocks.$post({ param: { id: String(cabinId) }, json: block }));
      notify.success(`Закрыто: ${rangeText(block.start, block.end)}`);
      // Cleared only once saved: a refused block stays in the form as typed.
      setBlock(EMPTY);
      await reload();
    }, 'Не удалось закрыть даты');
  }

  async function remove(r: Range) {
    const ok = await confirm({
      title: 'Открыть даты?',
      text: `${rangeText(r.start, r.end)} снова станут свободными для бронирования.`,
      confirmLabel: 'Открыть даты',
      cancelLabel: 'Оставить закрытыми',
    });
    if (!ok) return;
    setRemoving(r.id);
    try {
      await call(client().admin.blocks[':id'].$delete({ param: { id: String(r.id) } }));
      notify.success(`Снова свободно: ${rangeText(r.start, r.end)}`);
      await reload();
    } catch (err) {
      failed(err, 'Не удалось открыть даты');
    } finally {
      setRemoving(null);
    }
  }

  const setStart = (start: string) =>
    // The departure follows the first night unless it is already after it.
    setBlock((b) => ({ ...b, start, end: b.end && b.end > start ? b.end : start ? addDays(start, 1) : b.end }));

  return (
    <section className="group calendar-section" aria-labelledby="busy-title">
      <h3 className="group__title" id="busy-title">
        Занятые даты
      </h3>
      {cal.busy.length === 0 ? (
        <p className="muted">В ближайшие 12 месяцев все ночи свободны.</p>
      ) : (
        <ul className="busy-list" aria-label="Занятые даты">
          {cal.busy.map((r) => (
            <li key={`${r.source}-${r.id}`} className={`busy-list__item busy-list__item--${r.source}`}>
              <div className="busy-list__text">
                <p className="busy-list__dates">{rangeText(r.start, r.end)}</p>
                <p className="busy-list__source">{sourceText(r)}</p>
              </div>
              {r.source === 'block' && (
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  disabled={removing === r.id}
                  onClick={() => void remove(r)}
                >
                  <Icon name="trash" /> Открыть
                  <span className="visually-hidden"> даты {rangeText(r.start, r.end)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="calendar-form" onSubmit={add} aria-labelledby="block-title" noValidate>
        <h4 className="calendar-form__title" id="block-title">
          Закрыть даты вручную
        </h4>
        <p className="hint">
          Забронировали по телефону или ремонт? Закройте эти ночи. Выезд — день, когда ночь уже свободна.
        </p>
        <div className="form-grid">
          <div className="field">
            <label className="label" htmlFor="block-start">
              Заезд (первая ночь)
            </label>
            <input
              id="block-start"
              className="input"
              type="date"
              min={today}
              value={block.start}
              onChange={(e) => setStart(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="block-end">
              Выезд
            </label>
            <input
              id="block-end"
              className="input"
              type="date"
              min={block.start ? addDays(block.start, 1) : today}
              value={block.end}
              onChange={(e) => setBlock((b) => ({ ...b, end: e.target.value }))}
            />
          </div>
          <BlockNoteField id="block-note" value={block.note} onChange={(note) => setBlock((b) => ({ ...b, note }))} />
        </div>
        <button
          type="submit"
          className="btn btn--primary"
          disabled={busy || !block.start || !block.end}
          aria-busy={busy}
        >
          <Icon name="calendar" /> {busy ? 'Сохранение...' : 'Закрыть даты'}
        </button>
      </form>
    </section>
  );
}
