// «Экспорт календаря»: the cabin's secret iCal address for other platforms, to copy, or to
// replace when it leaked (the old one then stops working).
import { useRef, type RefObject } from 'react';
import { useBusyAction } from '../ui/useFailure.ts';
import { call, client } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useIsOwner } from '../ui/role.tsx';
import { useNotify } from '../ui/Notice.tsx';

/**
 * Copies a text to the clipboard and says so; without a clipboard (an older browser, no
 * permission, not HTTPS) selects it in `input` for the owner to copy.
 */
export function useCopy(input: RefObject<HTMLInputElement | null>, done: string) {
  const notify = useNotify();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify.success(done);
      return;
    } catch {
      // No clipboard here: select the text instead.
    }
    input.current?.focus();
    input.current?.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    if (copied) notify.success(done);
    else notify.info('Адрес выделен: нажмите на него и выберите «Копировать»');
  };
}

export function CalendarExport({
  cabinId,
  url,
  onRenewed,
}: {
  cabinId: number;
  url: string;
  onRenewed: (url: string) => void;
}) {
  const [busy, run] = useBusyAction();
  const input = useRef<HTMLInputElement>(null);
  const copy = useCopy(input, 'Адрес календаря скопирован');
  // A new address is the owner's to make: the old one stops working on every platform.
  const owner = useIsOwner();
  const notify = useNotify();
  const confirm = useConfirm();

  async function renew() {
    const ok = await confirm({
      title: 'Выдать новый адрес?',
      text: 'Старый адрес сразу перестанет работать: вставьте новый во все площадки, где был старый, иначе они перестанут видеть занятые даты.',
      confirmLabel: 'Выдать новый адрес',
      cancelLabel: 'Оставить прежний',
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      const res = await call(client().admin.cabins[':id']['ical-token'].$post({ param: { id: String(cabinId) } }));
      onRenewed(res.exportUrl);
      notify.success('Новый адрес календаря готов. Вставьте его в площадки вместо старого.');
    }, 'Не удалось выдать новый адрес');
  }

  return (
    <section className="group calendar-section" aria-labelledby="export-title">
      <h3 className="group__title" id="export-title">
        Экспорт календаря
      </h3>
      <p className="hint">
        Вставьте этот адрес в Суточно, Авито, RealtyCalendar или Google Календарь (раздел импорта календаря iCal): там
        будут видны ваши бронирования и закрытые вручную даты, без имён гостей. Даты, пришедшие из других календарей, в
        него не попадают.
      </p>
      <div className="field">
        <label className="label" htmlFor="export-url">
          Адрес календаря (iCal)
        </label>
        <input
          id="export-url"
          ref={input}
          className="input input--code"
          readOnly
          value={url}
          onFocus={(e) => e.target.select()}
        />
      </div>
      <div className="calendar-actions">
        <button type="button" className="btn btn--primary" onClick={() => void copy(url)}>
          Скопировать
        </button>
        {owner && (
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy}
            aria-busy={busy}
            onClick={() => void renew()}
          >
            Новый адрес
          </button>
        )}
      </div>
      {owner && (
        <p className="hint">Новый адрес нужен, если старый попал к посторонним: старый сразу перестанет работать.</p>
      )}
    </section>
  );
}
