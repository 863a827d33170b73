// «Напишите нам» on /contacts: name, e-mail, phone (optional),
// message and the 152-ФЗ consent. No server call: after a 1-second pause it opens WhatsApp in a
// new tab with the message for the site's number, clears the form and says it was sent.
// What a visitor types before the script arrives (a slow phone) is kept: the fields' state is
// taken from the page when the island wakes.
import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { CONTACT_FORM_DELAY_MS } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import { contactMessage } from '../lib/whatsapp.ts';
import { channelLink, type ChannelAddresses } from '../lib/channels.ts';
import { iconCheck, iconWhatsapp } from '../components/icons.ts';
import { Icon } from './Icon.tsx';
import { ConsentCheck, EmailField, InputField, NameField, Sending, TextAreaField } from './FormField.tsx';
import { FormError } from './FormError.tsx';

const SENT = 'Сообщение отправлено! Мы свяжемся с вами в ближайшее время.';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; message: string }
  | { kind: 'sent'; link: string; blocked: boolean };

/** The messengers the form can open: WhatsApp (the spec's), and Telegram when the owner has it. */
type Messenger = 'whatsapp' | 'telegram';

export default function ContactForm({ phone, telegramUsername = '' }: { phone: string; telegramUsername?: string }) {
  const id = useId();
  const reach: ChannelAddresses = { phone, telegramUsername, maxLink: '' };
  const messengers: Messenger[] = telegramUsername ? ['whatsapp', 'telegram'] : ['whatsapp'];
  const [via, setVia] = useState<Messenger>('whatsapp');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [tel, setTel] = useState('');
  const [message, setMessage] = useState('');
  const [consent, setConsent] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [ready, setReady] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // React leaves text typed before hydration in the fields, but the next render would put the
  // empty state back: read it first.
  useLayoutEffect(() => {
    const field = (name: string) => form.current?.elements.namedItem(name) as HTMLInputElement | null;
    setName(field('name')?.value ?? '');
    setEmail(field('email')?.value ?? '');
    setTel(field('phone')?.value ?? '');
    setMessage(field('message')?.value ?? '');
    setConsent(field('consent')?.checked ?? false);
    if (field('via')?.value === 'telegram' && telegramUsername) setVia('telegram');
    setReady(true);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (status.kind === 'sending') return;
    if (!name.trim() || !email.trim() || !message.trim()) {
      setStatus({ kind: 'error', message: MSG.reviewRequired });
      return;
    }
    if (!EMAIL.test(email.trim())) {
      setStatus({ kind: 'error', message: MSG.reviewEmailInvalid });
      return;
    }
    if (!consent) {
      setStatus({ kind: 'error', message: MSG.consentRequired });
      return;
    }
    setStatus({ kind: 'sending' });
    const link = channelLink(via, reach, contactMessage({ name, email, phone: tel, message }));
    // The click's user activation lasts about 5 s in browsers, so the new tab is still allowed.
    setTimeout(() => {
      // Not the 'noopener' feature: with it window.open always returns null, so a chat that did
      // open could not be told from a blocked one. The opener is cut by hand instead.
      const tab = window.open(link, '_blank');
      if (tab) tab.opener = null;
      setName('');
      setEmail('');
      setTel('');
      setMessage('');
      setConsent(false);
      setStatus({ kind: 'sent', link, blocked: tab === null });
    }, CONTACT_FORM_DELAY_MS);
  };

  const sending = status.kind === 'sending';
  return (
    <form
      className="card contact-form"
      ref={form}
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-t`}
      data-ready={ready ? '' : undefined}
    >
      <h2 id={`${id}-t`}>Напишите нам</h2>
      <p className="hint">Ответим в WhatsApp или по e-mail, обычно в течение часа.</p>
      <div className="contact-form__row">
        <NameField id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} />
        <EmailField id={`${id}-email`} required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <InputField
        id={`${id}-phone`}
        label="Телефон"
        optional
        name="phone"
        type="tel"
        autoComplete="tel"
        maxLength={40}
        value={tel}
        onChange={(e) => setTel(e.target.value)}
      />
      <TextAreaField
        id={`${id}-msg`}
        label="Сообщение"
        required
        name="message"
        rows={5}
        maxLength={2000}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
      />
      {messengers.length > 1 && (
        <fieldset className="field contact-form__via">
          <legend className="label">Куда отправить</legend>
          {messengers.map((m) => (
            <label className="check" key={m}>
              <input type="radio" name="via" value={m} checked={via === m} onChange={() => setVia(m)} />
              <span>{m === 'telegram' ? 'Telegram' : 'WhatsApp'}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="field">
        <ConsentCheck checked={consent} onChange={(e) => setConsent(e.target.checked)} />
      </div>
      <FormError message={status.kind === 'error' ? status.message : null} />
      {status.kind === 'sent' && (
        <div className="alert alert--success" role="alert">
          <p>
            <Icon svg={iconCheck} /> {SENT}
          </p>
          {status.blocked && (
            <p>
              Если {via === 'telegram' ? 'Telegram' : 'WhatsApp'} не открылся,{' '}
              <a href={status.link} target="_blank" rel="noopener noreferrer">
                откройте чат по ссылке
              </a>
              .
            </p>
          )}
        </div>
      )}
      <button type="submit" className="btn btn--whatsapp btn--lg btn--block" disabled={sending}>
        {sending ? (
          <Sending />
        ) : (
          <>
            <Icon svg={iconWhatsapp} /> Отправить сообщение
          </>
        )}
      </button>
    </form>
  );
}
