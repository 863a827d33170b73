import { useRef, useState, type Ref } from 'react';
import { Field } from '../ui/Field.tsx';

type Props = {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** The label of the app's code («Код из приложения»). */
  label?: string;
  hint?: string;
  autoFocus?: boolean;
  required?: boolean;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * The second factor as a person types it: 6 digits from the authenticator app on a
 * number pad (the phone offers the code itself with `one-time-code`), or, one tap away for someone
 * without their phone, a recovery code of letters and digits on the full keyboard.
 */
export function CodeField({
  value,
  onChange,
  error,
  label = 'Код из приложения',
  hint,
  autoFocus,
  required,
  inputRef,
}: Props) {
  const [recovery, setRecovery] = useState(false);
  const own = useRef<HTMLInputElement | null>(null);
  const setRef = (el: HTMLInputElement | null) => {
    own.current = el;
    if (typeof inputRef === 'function') inputRef(el);
    else if (inputRef) (inputRef as { current: HTMLInputElement | null }).current = el;
  };
  function toggle() {
    setRecovery((r) => !r);
    onChange('');
    requestAnimationFrame(() => own.current?.focus());
  }
  return (
    <div className="code-field">
      <Field
        label={recovery ? 'Резервный код' : label}
        hint={
          recovery
            ? 'Один из 10 кодов восстановления, например abcde-23456. Каждый код работает один раз.'
            : (hint ?? '6 цифр из приложения-аутентификатора')
        }
        error={error}
        required={required}
      >
        {(p) => (
          <input
            {...p}
            ref={setRef}
            className="input input--code"
            name="code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete={recovery ? 'off' : 'one-time-code'}
            autoCapitalize="none"
            spellCheck={false}
            maxLength={recovery ? 40 : 12}
            autoFocus={autoFocus}
            required={required}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
      <button type="button" className="btn btn--ghost code-field__switch" onClick={toggle}>
        {recovery ? 'Ввести код из приложения' : 'Нет доступа к телефону? Введите резервный код'}
      </button>
    </div>
  );
}
