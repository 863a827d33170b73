// «Ответить гостю» on a request's card: the ready message in the channel the guest chose, then
// the others, each one tap away; the text itself to read or copy; and whether the server e-mailed
// the guest the confirmation.
import type { GuestMessagePlace } from '../../../schema/guest-message.ts';
import type { IconName } from '../../components/icons.ts';
import { guestReplyLinks, guestReplyText, type ReplyWay } from '../../lib/guest-reply.ts';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import type { Booking } from './BookingRow.tsx';

const ICON: Record<ReplyWay, IconName> = { whatsapp: 'whatsapp', sms: 'chat', telegram: 'telegram', call: 'phone' };

/** The text on the owner's clipboard, or false where the browser allows none. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function GuestReply({ booking: b, place }: { booking: Booking; place: GuestMessagePlace }) {
  const notify = useNotify();
  const text = guestReplyText(b, place, window.location.origin);
  const links = guestReplyLinks(b, text);
  if (links.length === 0) return null;

  async function copyText() {
    if (await copy(text)) notify.success('Текст сообщения скопирован');
    else notify.info('Не удалось скопировать: выделите текст и скопируйте его');
  }

  return (
    <section className="reply" aria-label={`Ответить гостю по заявке №${b.id}`}>
      <p className="reply__title">Ответить гостю</p>
      <div className="reply__ways">
        {links.map((l, i) => (
          <a
            key={l.way}
            className={`btn btn--sm reply__way ${i === 0 ? (l.way === 'whatsapp' ? 'btn--whatsapp' : 'btn--primary') : 'btn--secondary'}`}
            href={l.href}
            data-way={l.way}
            {...(l.href.startsWith('https:') ? { target: '_blank', rel: 'noopener' } : {})}
            // Telegram by number takes no text: the message goes to the clipboard, ready to paste.
            onClick={
              l.way === 'telegram'
                ? () => void copy(text).then((ok) => ok && notify.info('Текст скопирован: вставьте его в чат'))
                : undefined
            }
          >
            <Icon name={ICON[l.way]} /> {l.label}
            {l.chosen && <span className="reply__chosen">выбрал гость</span>}
          </a>
        ))}
      </div>
      <details className="reply__text">
        <summary>Текст сообщения</summary>
        <p className="reply__message">{text}</p>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void copyText()}>
          Скопировать текст
        </button>
      </details>
      {b.confirmationMail === 'sent' && (
        <p className="reply__mail reply__mail--sent">
          <Icon name="check" /> Подтверждение отправлено на {b.email}
        </p>
      )}
      {b.confirmationMail === 'failed' && (
        <p className="reply__mail reply__mail--failed">
          <Icon name="x" /> Письмо гостю не отправлено: напишите в мессенджере
        </p>
      )}
    </section>
  );
}
