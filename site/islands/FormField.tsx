// One labelled field of the visitor's forms (contact, review, booking request): the same markup
// and classes everywhere, so every form reads and styles alike. `required` marks the label with
// the red asterisk and makes the control required; `optional` says «(необязательно)» instead.
// The fields the forms share whole (name, e-mail, consent, the honeypot) are written once below.
import type { ChangeEvent, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { ConsentText } from './ConsentText.tsx';

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

type InputAttrs = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required' | 'children'>;

/** The visitor's name: required, up to 100 characters, wherever a form asks for it. */
export function NameField({ id, ...attrs }: { id: string } & InputAttrs) {
  return <InputField id={id} label="Имя" required name="name" autoComplete="name" maxLength={100} {...attrs} />;
}

/** The visitor's e-mail (up to 200 characters); the label, `required` and a hint after it are the form's. */
export function EmailField({ label = 'Email', ...props }: Partial<Frame> & { id: string } & InputAttrs) {
  return <InputField label={label} name="email" type="email" autoComplete="email" maxLength={200} {...props} />;
}

/** The 152-ФЗ consent checkbox with its words; the forms keep whether it is ticked. */
export function ConsentCheck({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <label className="check">
      <input type="checkbox" name="consent" checked={checked} onChange={onChange} required />
      <ConsentText />
    </label>
  );
}

/** The field people never see and bots fill in: a form sent with it filled is dropped by the server. */
export function Honeypot({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="hp" aria-hidden="true">
      <label htmlFor={id}>Не заполняйте это поле</label>
      <input id={id} name="website" tabIndex={-1} autoComplete="off" value={value} onChange={onChange} />
    </div>
  );
}

/** What a send button says while the form is on its way. */
export function Sending() {
  return (
    <>
      <span className="spinner spinner--sm" aria-hidden="true" /> Отправка...
    </>
  );
}
