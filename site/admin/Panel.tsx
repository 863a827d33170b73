import { useEffect, useRef, useState } from 'react';
import { AccountTab } from './settings/AccountTab.tsx';
import { AuditTab } from './audit/AuditTab.tsx';
import { countNew, loadBookings } from './bookings/BookingRow.tsx';
import { BookingsTab } from './bookings/BookingsTab.tsx';
import { Checklist } from './Checklist.tsx';
import { CalendarTab } from './calendar/CalendarTab.tsx';
import { CabinsTab } from './cabins/CabinsTab.tsx';
import { ConfirmProvider, useConfirm } from './ui/Confirm.tsx';
import { ContactsTab } from './settings/ContactsTab.tsx';
import { clearAllDrafts, DRAFT_LABELS, useDraftKeys, type DraftKey } from './ui/drafts.ts';
import { GalleryTab } from './gallery/GalleryTab.tsx';
import { hashDetail, hashTab, useHashDetail } from './ui/hash.ts';
import { Icon } from './ui/Icon.tsx';
import { PublishProvider, PublishStatus } from './ui/PublishStatus.tsx';
import { ReportsTab } from './reports/ReportsTab.tsx';
import { ReviewsTab } from './reviews/ReviewsTab.tsx';
import { countUnread, loadUnreadThreads, MessagesTab, REFRESH_MS } from './messages/MessagesTab.tsx';
import { TodayTab } from './today/TodayTab.tsx';
import { MeProvider, type Me } from './ui/role.tsx';
import { SettingsTab } from './settings/SettingsTab.tsx';
import { useWhileVisible } from './ui/useWhileVisible.ts';

// «Сегодня» first in the bar: on a phone it is the day's work (who arrives, who leaves, what to
// clean), a tap away. The panel still opens on «Заявки», the requests waiting for an answer.
export const TABS = [
  { id: 'today', label: 'Сегодня' },
  { id: 'bookings', label: 'Заявки' },
  // What guests wrote to the bot, and the answers: beside the requests, read as often.
  { id: 'messages', label: 'Сообщения' },
  // The owner's numbers: occupancy, revenue, channels, the tourist tax. A manager reads
  // the figures too; the files with the guests' names are the owner's.
  { id: 'reports', label: 'Сводка' },
  { id: 'cabins', label: 'Домики', drafts: ['cabin'] },
  { id: 'calendar', label: 'Календарь' },
  { id: 'gallery', label: 'Галерея' },
  { id: 'contacts', label: 'Контакты', drafts: ['contacts', 'messengers'] },
  { id: 'reviews', label: 'Отзывы' },
  { id: 'settings', label: 'Настройки', drafts: ['settings', 'payments', 'discounts', 'extras', 'promoCodes'] },
  { id: 'account', label: 'Аккаунт', drafts: ['account'] },
  // Every change, sign-in and refusal: the owner's alone.
  { id: 'audit', label: 'Журнал', ownerOnly: true },
] as const satisfies readonly { id: string; label: string; drafts?: readonly DraftKey[]; ownerOnly?: true }[];
export type TabId = (typeof TABS)[number]['id'];

/** The tabs the person may open: a manager has no «Журнал». */
const tabsOf = (me: Me) => TABS.filter((t) => me.role === 'owner' || !('ownerOnly' in t));

const tabFromHash = (me: Me): TabId => {
  const id = hashTab();
  return tabsOf(me).find((t) => t.id === id)?.id ?? 'bookings';
};

type PanelProps = { me: Me; onLogout: () => Promise<void>; onAccountSaved: () => void };

/** The signed-in panel: loaded only after sign-in, so the login screen stays light on a phone. */
export default function Panel(props: PanelProps) {
  return (
    <ConfirmProvider>
      <PublishProvider>
        <MeProvider me={props.me}>
          <PanelView {...props} />
        </MeProvider>
      </PublishProvider>
    </ConfirmProvider>
  );
}

function PanelView({ me, onLogout, onAccountSaved }: PanelProps) {
  const { username } = me;
  const owner = me.role === 'owner';
  const tabs = tabsOf(me);
  const [tab, setTab] = useState<TabId>(() => tabFromHash(me));
  const detail = useHashDetail();
  const drafts = useDraftKeys();
  const confirm = useConfirm();
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // New requests waiting for an answer, shown on the «Заявки» tab wherever the owner is. When
  // the panel opens on «Заявки», the tab reads the list and reports the count itself.
  const [newRequests, setNewRequests] = useState(0);
  useEffect(() => {
    if (tabFromHash(me) === 'bookings') return;
    loadBookings()
      .then((list) => setNewRequests(countNew(list)))
      .catch(() => {});
  }, []);
  // The guests' unread messages, on «Сообщения» wherever the owner is, looked at again now and then.
  const [unreadMessages, setUnreadMessages] = useState(0);
  const lookForMessages = () =>
    void loadUnreadThreads()
      .then((list) => setUnreadMessages(countUnread(list)))
      .catch(() => {});
  useEffect(lookForMessages, []);
  useWhileVisible(lookForMessages, REFRESH_MS);

  // The mobile tab bar sticks just under the header, whose height depends on the phone.
  const header = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = header.current;
    if (!el) return;
    const observer = new ResizeObserver(() =>
      document.documentElement.style.setProperty('--admin-header-h', `${el.getBoundingClientRect().height}px`),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onHash = () => setTab(tabFromHash(me));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [me]);

  useEffect(() => {
    // After a menu choice, take keyboard and screen-reader users to the new section.
    if (moved.current) heading.current?.focus();
    // On a phone the current tab stays in view in the scrolling tab bar.
    document.querySelector('.admin-nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    moved.current = true;
  }, [tab]);

  function choose(id: TabId) {
    // The tab the owner is in, deeper («#calendar/3»): back to its start («Шахматка»).
    if (id === tab && hashDetail()) location.hash = `#${id}`;
    if (id === tab) return;
    history.replaceState(null, '', `#${id}`);
    setTab(id);
  }

  async function logout() {
    if (drafts.length > 0) {
      const ok = await confirm({
        title: 'Выйти без сохранения?',
        text: `Есть несохранённые изменения: ${drafts.map((k) => `«${DRAFT_LABELS[k]}»`).join(', ')}. После выхода они пропадут.`,
        confirmLabel: 'Выйти без сохранения',
        cancelLabel: 'Остаться',
        danger: true,
      });
      if (!ok) return;
      clearAllDrafts();
    }
    await onLogout();
  }

  const current = tabs.find((t) => t.id === tab) ?? tabs[0]!;
  return (
    <div className="admin">
      <a className="skip-link visually-hidden" href="#admin-main">
        К содержимому
      </a>
      <header className="admin-header" ref={header}>
        <div className="admin-header__brand">
          <Icon name="logo" className="admin-header__logo" />
          <h1 className="admin-header__title">Админ панель</h1>
        </div>
        <PublishStatus />
        <div className="admin-header__actions">
          <a className="btn btn--ghost btn--sm admin-header__site" href="/" target="_blank" rel="noopener">
            Открыть сайт
          </a>
          <span className="admin-header__user" title="Вы вошли как">
            {username}
            {!owner && ' (менеджер)'}
          </span>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void logout()}>
            Выйти
          </button>
        </div>
      </header>
      <div className="admin-body">
        <nav className="admin-nav" aria-label="Разделы панели">
          <ul>
            {tabs.map((t) => {
              // A dot while any form of the tab holds unsaved edits.
              const dirty = 'drafts' in t && t.drafts.some((d: DraftKey) => drafts.includes(d));
              return (
                <li key={t.id}>
                  <a
                    href={`#${t.id}`}
                    className="admin-nav__link"
                    aria-current={t.id === tab ? 'page' : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      choose(t.id);
                    }}
                  >
                    {t.label}
                    {t.id === 'bookings' && newRequests > 0 && (
                      <span className="admin-nav__count">
                        {newRequests}
                        <span className="visually-hidden"> новых</span>
                      </span>
                    )}
                    {t.id === 'messages' && unreadMessages > 0 && (
                      <span className="admin-nav__count">
                        {unreadMessages}
                        <span className="visually-hidden"> непрочитанных</span>
                      </span>
                    )}
                    {dirty && (
                      <span className="admin-nav__dot" title="Есть несохранённые изменения">
                        <span className="visually-hidden"> (есть несохранённые изменения)</span>
                      </span>
                    )}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <main className="admin-main" id="admin-main">
          <h2 className="admin-main__title" tabIndex={-1} ref={heading}>
            {current.label}
          </h2>
          {/* «С чего начать» on the first screen until done or hidden, the owner's only. Not above a request
              opened from elsewhere («#bookings/12»): arriving after the list, it would push that request out of view. */}
          {tab === 'bookings' && owner && !detail && <Checklist />}
          {tab === 'today' && <TodayTab />}
          {tab === 'bookings' && <BookingsTab onCount={setNewRequests} />}
          {tab === 'messages' && <MessagesTab onCount={setUnreadMessages} />}
          {tab === 'reports' && <ReportsTab owner={owner} />}
          {tab === 'cabins' && <CabinsTab />}
          {tab === 'calendar' && <CalendarTab />}
          {tab === 'gallery' && <GalleryTab />}
          {tab === 'contacts' && <ContactsTab />}
          {tab === 'reviews' && <ReviewsTab />}
          {tab === 'settings' && <SettingsTab />}
          {tab === 'account' && <AccountTab onSaved={onAccountSaved} />}
          {tab === 'audit' && owner && <AuditTab />}
        </main>
      </div>
    </div>
  );
}
