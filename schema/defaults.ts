import { DEFAULT_CHANGE_SETTINGS } from './date-change.ts';
import { DEPOSIT_ASK_DAYS_DEFAULT, type DepositWithoutHold } from './deposits.ts';
import { DEFAULT_CANCELLATION, DEFAULT_MESSAGES } from './guest-defaults.ts';
import { DEFAULT_CHECK_IN, DEFAULT_CHECK_OUT } from './constants.ts';
import { BOOKING_RETENTION_YEARS } from './booking-options.ts';
import {
  HOLD_MINUTES_DEFAULT,
  TOURIST_TAX_DEFAULT,
  type BookingMode,
  type PrepaymentKind,
  type VatCode,
} from './payment-options.ts';

// Built-in Russian texts used until the owner sets their own in the panel.
export const DEFAULT_SETTINGS = {
  siteName: 'Каспий',
  phone: '+7 (928) 555-12-34',
  email: 'info@kaspiy-dom.ru',
  address: 'Республика Дагестан, Каспийск, ул. Приморская, 12',
  footerDescription:
    'Уютные домики и апартаменты на берегу Каспийского моря. Тишина, чистый воздух и море в нескольких минутах от порога.',
  footerPhone: '+7 (928) 555-12-34',
  footerEmail: 'info@kaspiy-dom.ru',
  footerAddress: 'Республика Дагестан, Каспийск, ул. Приморская, 12',
  mapEmbedCode: '',
  ownerName: 'ИП Алиева Марина Руслановна',
  heroTitle: 'Отдых у Каспийского моря',
  heroSubtitle: 'Домики и апартаменты у самой воды: просыпайтесь под шум волн и бронируйте в пару касаний',
  whyChooseUsTitle: 'Почему выбирают нас',
  whyChooseUsSubtitle: 'Мы сами живём у моря и знаем, каким должен быть хороший отдых',
  whyChooseUsFeatures: [
    { title: 'Рядом с морем', description: 'Все домики в пешей доступности от пляжа, от 2 до 10 минут.' },
    { title: 'Чистота и уют', description: 'Свежее бельё, полотенца и уборка перед каждым заездом.' },
    { title: 'Честные цены', description: 'Цена за ночь без скрытых доплат. Бронирование напрямую у хозяина.' },
    { title: 'Всегда на связи', description: 'Ответим в WhatsApp, поможем с дорогой и подскажем, что посмотреть.' },
  ],
  galleryImages: [] as string[],
  checkInTime: DEFAULT_CHECK_IN,
  checkOutTime: DEFAULT_CHECK_OUT,
  /** Messengers for booking requests and the contacts page; empty until the owner sets them. */
  telegramUsername: '',
  maxLink: '',
  /** The ways a visitor may choose to go on after a booking request (schema/bookings.ts). */
  bookingChannels: ['whatsapp', 'phone'] as ('whatsapp' | 'telegram' | 'max' | 'phone')[],
  /** The entry in the register of classified accommodation (footer, contacts, JSON-LD); empty: not shown. */
  registryNumber: '',
  registryUrl: '',
  /** How long booking requests keep the guest's personal data (privacy page). */
  bookingRetentionYears: BOOKING_RETENTION_YEARS,
  /** Requests by default; prepayment only once the owner turns it on (with ЮKassa's keys). */
  bookingMode: 'request' as BookingMode,
  prepayment: { kind: 'percent' as PrepaymentKind, percent: 30 },
  holdMinutes: HOLD_MINUTES_DEFAULT,
  cleaningFee: 0,
  touristTax: { ...TOURIST_TAX_DEFAULT },
  vatCode: 1 as VatCode,
  /** Holds as before: a stay a hold cannot serve gets no deposit until the owner chooses a paid one. */
  deposit: { askDaysBefore: DEPOSIT_ASK_DAYS_DEFAULT, shopHolds: true, withoutHold: 'none' as DepositWithoutHold },
  changes: { ...DEFAULT_CHANGE_SETTINGS },
  /** The guest's cancellation terms and the e-mails that go by themselves. */
  cancellation: { ...DEFAULT_CANCELLATION },
  messages: structuredClone(DEFAULT_MESSAGES),
  /** «Продвижение»: nothing of Yandex is on the pages until the owner sets it. */
  promotion: { webmasterCode: '', metrikaId: '', indexNowKey: '' },
};

/** Contact page defaults; phone, email, address and map come from settings. */
export const CONTACT_PAGE_DEFAULTS = {
  title: 'Контакты',
  subtitle: 'Ответим на вопросы о домиках, свободных датах и дороге к морю',
  workingHours: 'Ежедневно с 8:00 до 22:00',
  telegram: 'kaspiy_dom',
  social: { facebook: '#', instagram: '#', vk: '#' },
  officeHours: { weekdays: 'Пн–Пт: 8:00–22:00', weekends: 'Сб–Вс: 9:00–21:00' },
};
