// The guest's page as HTML, from the answer of GET /api/guest/{token} (schema/guest-page.ts
// GuestPageAnswer): everything the guest reads is here before any script runs. The places with
// buttons («Оплатить остаток», «Отменить бронирование», the review form, «Получать сообщения в
// Telegram») are written exactly
// as the island's first render (site/islands/GuestPage.tsx), which hydrates them in place; the
// unit test test/unit/guest-page.test.ts holds the two to the same markup.
import { html, raw } from 'hono/html';
import {
  formatChildren,
  formatGuests,
  formatLineAmount,
  formatNights,
  formatPrice,
  formatStayDates,
} from '../../schema/format.ts';
import {
  cancelPolicyText,
  GUEST_HEADLINES,
  GUEST_PAGE_DATA_ID,
  guestStatusLabel,
  guestStatusOf,
  quotedName,
  type GuestPageAnswer,
} from '../../schema/guest-page.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import { DEPOSIT_PAY_BUTTON, depositGuestText } from '../../schema/deposit-words.ts';
import { changePendingText, changeRulesText } from '../../schema/date-change-words.ts';
import { TELEGRAM_BUTTON, TELEGRAM_CONSENT_TEXT, TELEGRAM_LINKED_TEXT } from '../../schema/telegram.ts';
import { MAX_BUTTON, MAX_CONSENT_TEXT, MAX_LINKED_TEXT } from '../../schema/max.ts';

type Html = ReturnType<typeof html>;
const str = async (h: Html | string) => (await h).toString();

/** «Оплатить остаток», or the way back to a payment started: the island's PayRest before a tap. */
export function payArea(page: GuestPageAnswer): Promise<string> {
  const pending = page.pendingPayment;
  if (pending?.confirmationUrl) {
    return str(
      html`<div class="guest__actions"><p class="hint">Платёж на ${formatKopecks(pending.amount)} начат, но ещё не завершён.</p><a class="btn btn--primary" href="${pending.confirmationUrl}">Вернуться к оплате</a><button type="button" class="btn btn--secondary">Проверить оплату</button></div>`,
    );
  }
  if (!page.canPay) return str('');
  return str(
    html`<div class="guest__actions"><button type="button" class="btn btn--primary btn--lg">Оплатить остаток ${formatKopecks(page.due)}</button></div>`,
  );
}

/** «Внести залог» («Оплатить залог» for a paid one), or the way back to one started: the island's DepositPay before a tap. */
export function depositArea(page: GuestPageAnswer): Promise<string> {
  const d = page.deposit;
  if (d?.confirmationUrl)
    return str(
      html`<div class="guest__actions"><a class="btn btn--primary" href="${d.confirmationUrl}">Вернуться к оплате залога</a><button type="button" class="btn btn--secondary">Проверить оплату</button></div>`,
    );
  if (!d?.canPay) return str('');
  return str(
    html`<div class="guest__actions"><button type="button" class="btn btn--primary">${DEPOSIT_PAY_BUTTON(d.amount, d.mode)}</button></div>`,
  );
}

/**
 * «Перенести даты»: the phone's date fields (and «Домик», where the owner allows another cabin) and
 * «Узнать стоимость», a move waiting for its difference, or why the dates can no longer be moved:
 * the island's ChangeDates before a tap. The fields are a plain form to the page itself, so a stay
 * sent before the script came is kept.
 */
export function changeArea(page: GuestPageAnswer): Promise<string> {
  const change = page.change;
  if (!change) return str('');
  if (change.pending)
    return str(
      html`<div class="guest__actions"><p class="hint">${changePendingText(change.pending)}</p><a class="btn btn--primary" href="${change.pending.confirmationUrl}">Доплатить</a><button type="button" class="btn btn--secondary">Проверить оплату</button></div>`,
    );
  if (!change.allowed) return str(change.reason ? html`<p class="hint">${change.reason}</p>` : '');
  // Where the owner allows another cabin: a plain field of the same form, the booking's own chosen.
  const cabins = change.cabins
    ? html`<label class="guest__field guest__field--wide">Домик<select class="input" name="cabinId">${change.cabins.map(
        (c) => html`<option value="${c.id}"${c.id === page.cabin.id ? raw(' selected=""') : ''}>${c.name}</option>`,
      )}</select></label>`
    : '';
  return str(
    html`<form class="guest__change" method="get"><label class="guest__field">Новый заезд<input class="input" type="date" required="" name="checkIn"/></label><label class="guest__field">Новый выезд<input class="input" type="date" required="" name="checkOut"/></label>${cabins}<div class="guest__actions"><button type="submit" class="btn btn--secondary">Узнать стоимость</button></div></form>`,
  );
}

/** Why the stay cannot be cancelled, or «Отменить бронирование»: the island's CancelActions before a tap. */
export function cancelArea(page: GuestPageAnswer): Promise<string> {
  const { cancel } = page;
  if (!cancel.allowed) return str(cancel.reason ? html`<p class="hint">${cancel.reason}</p>` : '');
  return str(html`<p><button type="button" class="btn btn--secondary">Отменить бронирование</button></p>`);
}

/**
 * «Получать сообщения в Telegram» with the consent it gives, or that they already come there: the
 * island's TelegramLink before a tap. Before the script has come the button is a plain form,
 * whose answer opens the bot (worker/routes/guest.ts).
 */
export const telegramArea = (page: GuestPageAnswer, api: string) =>
  messengerArea(page.telegram, `${api}/link/telegram`, TELEGRAM_BUTTON, TELEGRAM_CONSENT_TEXT, TELEGRAM_LINKED_TEXT);

/** «Получать сообщения в MAX», the same way: the island's MaxLink before a tap. */
export const maxArea = (page: GuestPageAnswer, api: string) =>
  messengerArea(page.max, `${api}/link/max`, MAX_BUTTON, MAX_CONSENT_TEXT, MAX_LINKED_TEXT);

/** A guests' bot's link as a plain form to its route, with its consent; or that the chat is tied. */
function messengerArea(
  state: { linked: boolean } | undefined,
  action: string,
  button: string,
  consent: string,
  linked: string,
): Promise<string> {
  if (!state) return str('');
  if (state.linked) return str(html`<p class="hint">${linked}</p>`);
  return str(
    html`<form class="guest__actions" action="${action}" method="post"><button type="submit" class="btn btn--secondary">${button}</button></form><p class="hint">${consent}</p>`,
  );
}

/** Where the review form comes once its script has loaded: the island's Review before that. */
export const reviewArea = (): Promise<string> =>
  str(
    html`<section class="guest__review" id="review" aria-label="Отзыв о проживании"><p class="hint" role="status">Загружаем форму отзыва…</p></section>`,
  );

/** A place the island hydrates; `display: contents`, so the page lays out as if it were not there. */
const island = async (name: string, inner: Promise<string>) =>
  html`<div class="guest__island" data-guest-island="${name}">${raw(await inner)}</div>`;

/**
 * The page's data for the island, in a data block no browser runs (so no CSP hash is needed):
 * `<` written as \u003c, so no text of the owner's or the guest's can close the element.
 */
export const pageData = (page: GuestPageAnswer) =>
  `<script type="application/json" id="${GUEST_PAGE_DATA_ID}">${JSON.stringify(page).replace(/</g, '\\u003c')}</script>`;

/** The page's content; `api` is the booking's address under /api/guest/ (the calendar file's link). */
export async function guestPageHtml(page: GuestPageAnswer, api: string): Promise<string> {
  const status = guestStatusOf(page.status);
  return str(html`<header class="guest__head">
      <p class="badge guest__status guest__status--${status}">${guestStatusLabel(status)}</p>
      <h1>${GUEST_HEADLINES[status]}</h1>
      <p class="guest__stay"><a href="/cabin/${page.cabin.id}">${quotedName(page.cabin.name)}</a>: ${formatStayDates(page.checkIn, page.checkOut)}, ${formatNights(page.nights)}, ${[formatGuests(page.guests), formatChildren(page.childrenAges), page.pets ? 'с животными' : ''].filter(Boolean).join(', ')}. Заезд с ${page.checkInTime}, выезд до ${page.checkOutTime}. Бронирование №${page.id}.</p>
    </header>
    <section class="card guest__card" aria-labelledby="guest-money">
      <h2 id="guest-money">Стоимость и оплата</h2>
      <dl class="guest__lines">
        ${page.lines.map((l) => html`<div><dt>${l.label}</dt><dd>${formatLineAmount(l.amount)}</dd></div>`)}
        <div class="guest__total"><dt>Итого</dt><dd>${formatPrice(page.total)}</dd></div>
        ${page.paid > 0 || page.refunded > 0 ? html`<div><dt>Оплачено</dt><dd>${formatKopecks(page.paid)}</dd></div>` : ''}
        ${page.refunded > 0 ? html`<div><dt>Возвращено</dt><dd>${formatKopecks(page.refunded)}</dd></div>` : ''}
        ${page.due > 0 && status !== 'cancelled' ? html`<div class="guest__due"><dt>Осталось оплатить</dt><dd>${formatKopecks(page.due)}</dd></div>` : ''}
      </dl>
      ${island('pay', payArea(page))}
    </section>
    ${
      page.deposit
        ? html`<section class="card guest__card" aria-labelledby="guest-deposit">
      <h2 id="guest-deposit">Залог</h2>
      <p>${depositGuestText(page.deposit)}</p>
      ${island('deposit', depositArea(page))}
    </section>`
        : ''
    }
    ${page.instructions ? arrival(page, api, page.instructions) : ''}
    ${
      page.telegram || page.max
        ? html`<section class="card guest__card" aria-labelledby="guest-messages">
      <h2 id="guest-messages">Сообщения о брони</h2>
      ${island('telegram', telegramArea(page, api))}
      ${island('max', maxArea(page, api))}
    </section>`
        : ''
    }
    ${
      page.change
        ? html`<section class="card guest__card" aria-labelledby="guest-change">
      <h2 id="guest-change">Перенести даты</h2>
      ${page.change.allowed || page.change.pending ? html`<p>${changeRulesText(page.change.until)}</p>` : ''}
      ${island('change', changeArea(page))}
    </section>`
        : ''
    }
    ${
      status === 'cancelled'
        ? cancelled(page)
        : html`<section class="card guest__card" aria-labelledby="guest-cancel">
      <h2 id="guest-cancel">Условия отмены</h2>
      <p>${cancelPolicyText(page.cancel.policy, page.cancel.freeUntil)}</p>
      ${island('cancel', cancelArea(page))}
    </section>`
    }
    ${page.reviewed ? reviewThanks() : page.canReview ? island('review', reviewArea()) : ''}
    ${raw(pageData(page))}`);
}

/** Once confirmed: the address, the map, the owner's instructions, whom to call, and the stay for the phone's calendar. */
function arrival(page: GuestPageAnswer, api: string, i: NonNullable<GuestPageAnswer['instructions']>) {
  return html`<section class="card guest__card" aria-labelledby="guest-way">
      <h2 id="guest-way">Как добраться и заселиться</h2>
      ${i.address ? html`<p><strong>Адрес:</strong> ${i.address}${i.mapUrl ? html` · <a href="${i.mapUrl}" target="_blank" rel="noopener noreferrer">Открыть на карте</a>` : ''}</p>` : ''}
      ${i.text ? html`<p class="guest__instructions">${i.text}</p>` : ''}
      <p><strong>Связь с хозяином:</strong> ${i.phone ? html`<a href="tel:${i.phone.replace(/[^\d+]/g, '')}">${i.phone}</a>` : ''}${i.phone && i.email ? ', ' : ''}${i.email ? html`<a href="mailto:${i.email}">${i.email}</a>` : ''}</p>
      <p><a class="btn btn--secondary" href="${api}/stay.ics" download="stay-${page.id}.ics">Добавить в календарь</a></p>
    </section>`;
}

function cancelled(page: GuestPageAnswer) {
  return html`<section class="card guest__card" aria-labelledby="guest-cancel">
      <h2 id="guest-cancel">Отмена</h2>
      <p role="status">Бронирование отменено. ${page.refunded > 0 ? `Возвращаем ${formatKopecks(page.refunded)} на карту, с которой вы платили: обычно деньги приходят за несколько дней.` : 'Денег к возврату нет.'}</p>
    </section>`;
}

const reviewThanks = () => html`<section class="card guest__card" id="review" aria-labelledby="guest-review">
      <h2 id="guest-review">Отзыв</h2>
      <p role="status">Спасибо за отзыв! Он появится на сайте после проверки с отметкой «Гость проживал(а)».</p>
    </section>`;
