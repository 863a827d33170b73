// Inputs of the panel's forms behind the sign-in (Field.tsx, which the login screen loads too,
// keeps only what it needs, so that screen's script stays within its weight).
import type { InputHTMLAttributes } from 'react';

/**
 * A text input for a whole number the owner types as digits (roubles, a profile's number): the
 * numeric keyboard on phones, no autofill, and the text kept as typed for the form's own check.
 */
export function DigitsInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'autoComplete'>) {
  return <input className="input" inputMode="numeric" autoComplete="off" {...props} />;
}

/** A password's input, never shown as typed. */
export function PasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return <input className="input" type="password" {...props} />;
}
