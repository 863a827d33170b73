// The built-in terms and texts of the guest's stay (the cancellation policy, the three e-mails),
// apart from their zod schemas in guest-page.ts: the booking card reads the site's defaults when it
// wakes, and building those schemas (zod and every message text) cost a phone's CPU hundreds of
// milliseconds it did not need.
import type { CancellationPolicy, MessageSettings } from './guest-page.ts';

export const DEFAULT_CANCELLATION: CancellationPolicy = { freeUntilDays: 7, keepPercent: 30 };

export const DEFAULT_MESSAGES: MessageSettings = {
  confirmation: {
    enabled: true,
    subject: 'Бронирование подтверждено: {домик}, {заезд}',
    body:
      'Здравствуйте, {имя}!\n\nВаше бронирование подтверждено: «{домик}», заезд {заезд}, выезд {выезд}.\n\n' +
      'Всё о поездке — оплата, как добраться, контакты и условия отмены — на странице бронирования:\n{ссылка}\n\nДо встречи у моря!',
  },
  reminder: {
    enabled: true,
    daysBefore: 3,
    subject: 'Скоро заезд: {домик}, {заезд}',
    body:
      'Здравствуйте, {имя}!\n\nЖдём вас {заезд} в «{домик}». Время заезда, как добраться, ключи и Wi-Fi — на странице бронирования:\n{ссылка}\n\n' +
      'Если планы изменились, напишите нам.',
  },
  review: {
    enabled: true,
    daysAfter: 1,
    subject: 'Как вам отдых в «{домик}»?',
    body:
      'Здравствуйте, {имя}!\n\nСпасибо, что были у нас с {заезд} по {выезд}. Расскажите, как всё прошло: ваш отзыв поможет другим гостям.\n{ссылка}\n\n' +
      'Отзыв по этой ссылке будет отмечен как отзыв гостя, который у нас жил.',
  },
};
