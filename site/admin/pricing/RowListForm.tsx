// The frame the lists of «Цены и скидки» (discounts, promo codes, extras) share: a title and a
// hint, the rows, each in its own numbered fieldset with the rule it makes in words and a
// «Удалить», «Добавить …», the server's refusal beside the form, and the save footer. Each list
// brings only its draft's key, its fields and the words for its rule and its save.
import type { Key, ReactNode } from 'react';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import type { DraftKey } from '../ui/drafts.ts';
import { useListForm } from './useListForm.ts';

export type RowListWords = {
  title: string;
  hint: string;
  /** Shown instead of the list when it has no rows: «Скидок нет.» */
  empty: string;
  /** The list's accessible name: «Скидки». */
  list: string;
  /** A row's legend before its number: «Скидка» 1. */
  row: string;
  /** What «Удалить» says to a screen reader before the number: «скидку» 1. */
  remove: string;
  add: string;
  save: string;
  /** The notices after a save: «Скидки сохранены», «Не удалось сохранить скидки». */
  saved: string;
  failed: string;
};

export function RowListForm<R>(props: {
  /** Where the rows typed and not yet saved are kept. */
  draft: DraftKey;
  saved: { rows: R[] };
  /** Sends the rows and keeps what the server answers (useListForm). */
  save: (values: { rows: R[] }) => Promise<unknown>;
  /** The id of the form's title, which names the form. */
  titleId: string;
  words: RowListWords;
  /** A new row, and the id of its first field (focused once it is added). */
  newRow: () => R;
  firstFieldId: (index: number) => string;
  fields: (row: R, index: number, set: (patch: Partial<R>) => void) => ReactNode;
  /** The row's rule in words («−10 % при проживании от 7 ночей»), or '' while it is unfinished. */
  rule: (row: R) => string;
  rowKey?: (row: R, index: number) => Key;
}) {
  const { words } = props;
  const form = useListForm({
    draft: props.draft,
    saved: props.saved,
    save: props.save,
    messages: { saved: words.saved, failed: words.failed },
  });
  const { values, update, dirty, discard, restored, busy, refused, formRef, submit } = form;
  const set = (i: number) => (patch: Partial<R>) =>
    update((v) => ({ rows: v.rows.map((r, n) => (n === i ? { ...r, ...patch } : r)) }));
  const add = () => {
    update((v) => ({ rows: [...v.rows, props.newRow()] }));
    const index = values.rows.length;
    requestAnimationFrame(() => document.getElementById(props.firstFieldId(index))?.focus());
  };

  return (
    <form
      ref={formRef}
      className="group calendar-section pricing-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={props.titleId}
    >
      <h3 className="group__title" id={props.titleId}>
        {words.title}
      </h3>
      <RestoredDraft show={restored && dirty} />
      <p className="hint">{words.hint}</p>
      {values.rows.length === 0 ? (
        <p className="muted">{words.empty}</p>
      ) : (
        <ul className="season-list" aria-label={words.list}>
          {values.rows.map((r, i) => (
            <li key={props.rowKey?.(r, i) ?? i} className="season-list__item">
              <fieldset>
                <legend className="season-list__legend">
                  {words.row} {i + 1}
                </legend>
                {props.fields(r, i, set(i))}
              </fieldset>
              <div className="season-list__foot">
                <span className="pricing-form__rule">{props.rule(r)}</span>
                <button
                  type="button"
                  className="btn btn--ghost btn--sm calendar-remove"
                  onClick={() => update((v) => ({ rows: v.rows.filter((_, n) => n !== i) }))}
                >
                  <Icon name="trash" /> Удалить
                  <span className="visually-hidden">
                    {' '}
                    {words.remove} {i + 1}
                  </span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn--secondary" onClick={add}>
        <Icon name="plus" /> {words.add}
      </button>
      <div role="alert" className="form-refusal">
        {refused && <p className="alert">{refused}</p>}
      </div>
      <FormFooter dirty={dirty} busy={busy} label={words.save} onDiscard={discard} />
    </form>
  );
}
