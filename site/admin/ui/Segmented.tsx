// The row of buttons above a list («Заявки», «Отзывы») that shows one part of it, each button
// with how many rows it would show; the pressed one is the part shown.
export function Segmented<K extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** What the buttons choose, for a screen reader: «Какие заявки показать». */
  label: string;
  options: readonly { id: K; label: string; count: number }[];
  value: K;
  onChange: (id: K) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((f) => (
        <button
          key={f.id}
          type="button"
          className="segmented__btn"
          aria-pressed={value === f.id}
          onClick={() => onChange(f.id)}
        >
          {f.label} <span className="segmented__count">{f.count}</span>
        </button>
      ))}
    </div>
  );
}
