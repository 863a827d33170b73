import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { $ZodError } from 'zod/v4/core';
import { iconX } from '../../components/icons-base.ts';
import { Icon as SvgIcon } from '../../islands/Icon.tsx';

export type FieldErrors = Record<string, string>;

/** The first message of each field (by the first segment of its path), as the shared schemas word them. */
export function fieldErrors(error: $ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** Moves focus to the first field the browser shows as invalid, so keyboard and screen readers land there. */
export function focusFirstInvalid(form: HTMLElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

type ControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string };

/** Label, control, hint and error in the site's .field layout, wired for assistive tech. */
export function Field({
  id: fixedId,
  label,
  hint,
  error,
  required,
  children,
  className,
}: {
  /** A fixed id, for a control found by it (a new row's first field is focused by id); made up otherwise. */
  id?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  children: (props: ControlProps) => ReactNode;
  className?: string;
}) {
  const madeId = useId();
  const id = fixedId ?? madeId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="label" htmlFor={id}>
        {label}
        {required && (
          <span className="req" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': describedBy })}
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error-text" id={errorId}>
          <SvgIcon svg={iconX} /> {error}
        </span>
      )}
    </div>
  );
}

/** A whole-number input of the panel's forms, with the numeric keyboard on phones. */
export function NumberInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>) {
  return <input className="input" type="number" inputMode="numeric" {...props} />;
}

/** A whole percentage, 1 to 100, as a discount or a promo code takes it. */
export function PercentInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'min' | 'max'>) {
  return <NumberInput min={1} max={100} {...props} />;
}

/** An input for a key or token typed or pasted exactly: no capitals, spelling or autofill added. */
export function CodeInput(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'autoComplete' | 'autoCapitalize' | 'spellCheck'>,
) {
  return <input className="input input--code" autoComplete="off" autoCapitalize="none" spellCheck={false} {...props} />;
}
