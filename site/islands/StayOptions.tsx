// The booking card's choices once the dates are picked: the extras the cabin offers
// (the optional ones as checkboxes, the mandatory ones listed as included) and the promo code,
// checked by the server on «Применить» with its reason beside the field when it does not apply.
// What is ticked and typed lives in the card, so new dates or a failed send never lose it. Loaded
// with the request form, in its chunk (BookingRequest.tsx re-exports it), so it costs the page
// nothing until a stay is picked.
import type { RefObject } from 'react';
import { formatPrice } from '../../schema/format.ts';
import { EXTRA_PER_LABELS, type Extra } from '../../schema/pricing.ts';

/** The code as the card holds it: as typed, the one applied, and the server's word on the last one checked. */
export type PromoState = {
  text: string;
  /** The code the price includes (as typed when it was checked), or none. */
  applied: string | null;
  /** Why the code `text` is not applied: the server's reason (`refused`), or that it could not be checked. */
  note: { text: string; error: string; refused: boolean } | null;
  checking: boolean;
};

interface Props {
  id: string;
  /** The cabin's extras. */
  extras: readonly Extra[];
  ticked: readonly number[];
  onTick: (id: number, on: boolean) => void;
  promo: PromoState;
  onPromoText: (text: string) => void;
  onApply: () => void;
  promoInput: RefObject<HTMLInputElement | null>;
}

/** An extra as offered: «Баня — 2 000 ₽ за проживание», «Завтрак — 400 ₽ за гостя в ночь». */
export const extraOffer = (e: Pick<Extra, 'name' | 'price' | 'per'>): string =>
  e.price === 0 ? `${e.name} — бесплатно` : `${e.name} — ${formatPrice(e.price)} ${EXTRA_PER_LABELS[e.per]}`;

export function StayOptions({ id, extras, ticked, onTick, promo, onPromoText, onApply, promoInput }: Props) {
  const optional = extras.filter((e) => !e.mandatory);
  const included = extras.filter((e) => e.mandatory);
  const noteId = `${id}-promo-note`;
  const refusedNow = promo.note !== null;
  return (
    <div className="booking__options">
      {optional.length > 0 && (
        <fieldset className="booking__extras">
          <legend className="label">Дополнительные услуги</legend>
          {optional.map((e) => (
            <label className="check booking__extra" key={e.id}>
              <input
                type="checkbox"
                name="extras"
                value={e.id}
                checked={ticked.includes(e.id)}
                onChange={(ev) => onTick(e.id, ev.target.checked)}
              />
              <span>{extraOffer(e)}</span>
            </label>
          ))}
        </fieldset>
      )}
      {included.length > 0 && (
        <div className="booking__included">
          <p className="label" id={`${id}-included`}>
            Входит в стоимость
          </p>
          <ul aria-labelledby={`${id}-included`}>
            {included.map((e) => (
              <li key={e.id}>{extraOffer(e)}</li>
            ))}
          </ul>
        </div>
      )}
      <form
        className="field booking__promo"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onApply();
        }}
      >
        <label className="label" htmlFor={`${id}-promo`}>
          Промокод
        </label>
        <div className="booking__promo-row">
          <input
            className="input"
            id={`${id}-promo`}
            ref={promoInput}
            name="promo"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="done"
            maxLength={40}
            value={promo.text}
            aria-invalid={refusedNow || undefined}
            aria-describedby={noteId}
            onChange={(e) => onPromoText(e.target.value)}
          />
          <button type="submit" className="btn btn--secondary" disabled={promo.checking}>
            {promo.checking ? 'Проверяем…' : 'Применить'}
          </button>
        </div>
        <div id={noteId} aria-live="polite">
          {promo.note ? (
            <p className="error-text">{promo.note.error}</p>
          ) : promo.applied ? (
            <p className="hint booking__promo-ok">Промокод {promo.applied.toUpperCase()} применён</p>
          ) : null}
        </div>
      </form>
    </div>
  );
}
