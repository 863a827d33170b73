// One labelled field of the visitor's forms (contact, review, booking request): the same markup
// and classes everywhere, so every form reads and styles alike. `required` marks the label with
// the red asterisk and makes the control required; `optional` says «(необязательно)» instead.
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface Frame {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  /** What follows the control inside the field: a hint, a counter. */
  children?: ReactNode;
}

function FieldFrame({ id, label, required, optional, children, control }: Frame & { control: ReactNode }) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
        {required && (
          <>
            {' '}
            <span className="req">*</span>
          </>
        )}
        {optional && (
          <>
            {' '}
            <span className="hint">(необязательно)</span>
          </>
        )}
      </label>
      {control}
      {children}
    </div>
  );
}

/** A labelled `<input>`; every other attribute goes to the input. */
export function InputField({
  id,
  label,
  required,
  optional,
  children,
  ...input
}: Frame & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required' | 'children'>) {
  return (
    <FieldFrame
      id={id}
      label={label}
      required={required}
      optional={optional}
      control={<input className="input" id={id} required={required} {...input} />}
    >
      {children}
    </FieldFrame>
  );
}

/** A labelled `<textarea>`; every other attribute goes to the textarea. */
export function TextAreaField({
  id,
  label,
  required,
  optional,
  children,
  ...area
}: Frame & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'required' | 'children'>) {
  return (
    <FieldFrame
      id={id}
      label={label}
      required={required}
      optional={optional}
      control={<textarea className="input" id={id} required={required} {...area} />}
    >
      {children}
    </FieldFrame>
  );
}
