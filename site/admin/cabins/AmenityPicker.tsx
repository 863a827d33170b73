import { useId, useState, type KeyboardEvent } from 'react';
import { AMENITY_SUGGESTIONS } from '../../../schema/constants.ts';
import { Icon } from '../ui/Icon.tsx';

const SUGGESTED: readonly string[] = AMENITY_SUGGESTIONS;

/** Amenities chosen from the suggestion list or typed by the owner. */
export function AmenityPicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
}) {
  const [custom, setCustom] = useState('');
  const inputId = useId();
  const errorId = useId();
  const has = (a: string) => value.some((v) => v.toLowerCase() === a.toLowerCase());
  const toggle = (a: string) =>
    onChange(has(a) ? value.filter((v) => v.toLowerCase() !== a.toLowerCase()) : [...value, a]);
  const others = value.filter((v) => !SUGGESTED.some((s) => s.toLowerCase() === v.toLowerCase()));

  function addCustom() {
    const text = custom.trim().replace(/\s+/g, ' ');
    if (!text) return;
    if (!has(text)) onChange([...value, text]);
    setCustom('');
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      addCustom();
    }
  }

  return (
    <fieldset className="amenities" aria-describedby={error ? errorId : undefined}>
      <legend className="label">Удобства</legend>
      <div className="chips">
        {SUGGESTED.map((a) => (
          <button key={a} type="button" className="chip" aria-pressed={has(a)} onClick={() => toggle(a)}>
            {has(a) && <Icon name="check" />}
            {a}
          </button>
        ))}
        {others.map((a) => (
          <span key={a} className="chip chip--custom">
            {a}
            <button type="button" className="chip__remove" onClick={() => toggle(a)}>
              <Icon name="close" label={`Убрать «${a}»`} />
            </button>
          </span>
        ))}
      </div>
      <div className="amenities__add">
        <label className="visually-hidden" htmlFor={inputId}>
          Своё удобство
        </label>
        <input
          id={inputId}
          className="input"
          placeholder="Своё удобство, например: Мангал"
          maxLength={60}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn--secondary btn--sm" onClick={addCustom} disabled={!custom.trim()}>
          Добавить
        </button>
      </div>
      {error && (
        <span className="error-text" id={errorId}>
          <Icon name="x" /> {error}
        </span>
      )}
    </fieldset>
  );
}
