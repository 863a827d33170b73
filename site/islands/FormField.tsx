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

/**
 * Splits a field's props: the frame's own (label, marks, what follows the control) and the control's,
 * which gets the shared class, the id the label points at and `required`; every other attribute
 * is passed on to it as given.
 */
function split<Attrs extends object>({ id, label, required, optional, children, ...attrs }: Frame & Attrs) {
  return {
    frame: { id, label, required, optional, children },
    control: { className: 'input', id, required, ...attrs },
  };
}

/** A labelled `<input>`; every other attribute goes to the input. */
export function InputField(props: Frame & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required' | 'children'>) {
  const { frame, control } = split(props);
  return <FieldFrame {...frame} control={<input {...control} />} />;
}

/** A labelled `<textarea>`; every other attribute goes to the textarea. */
export function TextAreaField(
  props: Frame & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'required' | 'children'>,
) {
  const { frame, control } = split(props);
  return <FieldFrame {...frame} control={<textarea {...control} />} />;
}
