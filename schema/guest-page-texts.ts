// What the guest's page island (site/islands/GuestPage.tsx) takes from schema/, in a module with
// no validation: the modules that build zod schemas build them when they are loaded, and on the
// guest's page that came to most of the one long task after the first paint (its buttons' code
// being evaluated: 150-290 ms at 4x CPU). The modules these belong with re-export them.

/** The id of the page's data block, which the server writes and the island reads. */
export const GUEST_PAGE_DATA_ID = 'guest-page-data';

/** A cabin's name in «», unless it has its own: «Домик «Бриз» у воды» is read as it is. */
export const quotedName = (name: string) => (/[«»"]/.test(name) ? name : `«${name}»`);

/**
 * What the guest reads beside the button, and what is stored with the link as their consent:
 * Telegram's servers are abroad, so this is a cross-border transfer (152-ФЗ, art. 12).
 */
export const TELEGRAM_CONSENT_TEXT =
  'Нажимая кнопку, вы соглашаетесь получать сообщения об этой брони в Telegram. Telegram хранит переписку на своих серверах за пределами России; туда уходят только короткие уведомления и ссылка на эту страницу, без адреса, кодов и инструкций. Отписаться: напишите боту «стоп».';

/** The guest page's button, and what it says once the guest tied a chat. */
export const TELEGRAM_BUTTON = 'Получать сообщения в Telegram';
export const TELEGRAM_LINKED_TEXT = 'Сообщения о брони приходят и в Telegram. Отписаться: напишите боту «стоп».';

/**
 * What the guest reads beside the button, and what is stored with the link as their consent. MAX
 * keeps its chats in Russia, so unlike Telegram's this is no cross-border transfer.
 */
export const MAX_CONSENT_TEXT =
  'Нажимая кнопку, вы соглашаетесь получать сообщения об этой брони в MAX. Туда уходят только короткие уведомления и ссылка на эту страницу, без адреса, кодов и инструкций. Отписаться: напишите боту «стоп».';

/** The guest page's button, and what it says once the guest tied a dialog. */
export const MAX_BUTTON = 'Получать сообщения в MAX';
export const MAX_LINKED_TEXT = 'Сообщения о брони приходят и в MAX. Отписаться: напишите боту «стоп».';
