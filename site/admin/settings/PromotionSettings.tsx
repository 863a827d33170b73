// «Настройки» → «Продвижение», the owner's alone: the code that proves to Yandex Webmaster the site
// is theirs (a meta tag on the home page), the Metrika counter (loaded only for visitors who agree,
// docs/features.md «Продвижение»), and how to put the business on Yandex Maps and in search
// through Яндекс Бизнес, which the site cannot do for the owner.
import { MSG } from '../../../schema/messages.ts';
import { promotionSchema, type Promotion, type Settings } from '../../../schema/settings.ts';
import { call, client } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { IndexNowStatus } from './IndexNowStatus.tsx';
import { useSettingsForm } from './useSettingsForm.ts';

const pick = (s: Settings): Promotion => s.promotion;

/** The server's refusals, each at its field. */
const FIELD_OF: Record<string, keyof Promotion> = {
  [MSG.webmasterCodeInvalid]: 'webmasterCode',
  [MSG.metrikaIdInvalid]: 'metrikaId',
  [MSG.indexNowKeyInvalid]: 'indexNowKey',
};

export function PromotionSettings() {
  const { state, reload, setData } = useLoad(() => call(client().admin.settings.$get()).then(pick));
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  return (
    <>
      <PromotionForm saved={state.data} onSaved={(s) => setData(() => s)} />
      <IndexNowStatus />
      <PromotionGuide />
    </>
  );
}

function PromotionForm({ saved, onSaved }: { saved: Promotion; onSaved: (s: Promotion) => void }) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'promotion',
    saved,
    onSaved,
    pick,
    check: (v) => promotionSchema.safeParse(v),
    // The IndexNow key goes back as it was loaded: the server keeps the whole «promotion».
    payload: (data) => ({ promotion: data }),
    errorField: (message) => FIELD_OF[message],
    messages: { saved: 'Настройки сохранены!', failed: 'Ошибка при сохранении настроек' },
  });
  const set = (key: 'webmasterCode' | 'metrikaId', value: string) => {
    update({ [key]: value } as Partial<Promotion>);
    clearError(key);
  };

  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate aria-label="Продвижение">
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Яндекс Вебмастер и Метрика</legend>
        <Field
          label="Код подтверждения Яндекс Вебмастера"
          error={errors.webmasterCode}
          hint={
            <>
              Вставьте мета-тег из Вебмастера целиком (&lt;meta name="yandex-verification" …&gt;) или только код из
              него. Сайт добавит его на главную страницу.
            </>
          }
        >
          {(p) => (
            <input
              {...p}
              className="input"
              autoComplete="off"
              spellCheck={false}
              value={values.webmasterCode}
              onChange={(e) => set('webmasterCode', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Номер счётчика Яндекс Метрики"
          error={errors.metrikaId}
          hint="Цифры рядом с названием счётчика в Метрике, например 98765432. Метрика включится только у посетителей, которые нажмут «Согласен» в сообщении внизу сайта. Пустое поле — Метрики на сайте нет."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              autoComplete="off"
              value={values.metrikaId}
              onChange={(e) => set('metrikaId', e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить" onDiscard={discard} />
    </form>
  );
}

/** What the owner does on Yandex's side, step by step. */
function PromotionGuide() {
  return (
    <section className="tab tab-form promotion-guide" aria-labelledby="promotion-guide-title">
      <div className="group">
        <h3 className="group__title" id="promotion-guide-title">
          Как попасть на Яндекс Карты и в поиск
        </h3>
        <h4>Яндекс Бизнес: карточка организации</h4>
        <p className="hint">
          Карты и поиск Яндекса показывают карточку организации (адрес, фото, часы работы, телефон, отзывы) из Яндекс
          Бизнеса, а не со страниц сайта: её нужно добавить самим.
        </p>
        <ol>
          <li>
            Откройте{' '}
            <a href="https://yandex.ru/sprav/" target="_blank" rel="noopener noreferrer">
              Яндекс Бизнес (yandex.ru/sprav)
            </a>{' '}
            и войдите своим Яндекс ID.
          </li>
          <li>Нажмите «Добавить организацию» и укажите название и вид деятельности, например «База отдыха».</li>
          <li>Укажите адрес и поставьте точку на карте у самого въезда.</li>
          <li>Добавьте телефон, часы работы и ссылку на этот сайт.</li>
          <li>Загрузите фото домиков, территории и моря: с ними карточку открывают чаще.</li>
          <li>Подтвердите, что организация ваша (звонок или код), и дождитесь проверки.</li>
        </ol>
        <h4>Яндекс Вебмастер: подтвердить сайт</h4>
        <ol>
          <li>
            Откройте{' '}
            <a href="https://webmaster.yandex.ru/" target="_blank" rel="noopener noreferrer">
              Яндекс Вебмастер (webmaster.yandex.ru)
            </a>{' '}
            и добавьте адрес сайта.
          </li>
          <li>Выберите способ подтверждения «Мета-тег» и скопируйте мета-тег.</li>
          <li>Вставьте его в поле «Код подтверждения Яндекс Вебмастера» выше и нажмите «Сохранить».</li>
          <li>Дождитесь надписи «Сайт обновлён» вверху панели.</li>
          <li>Вернитесь в Вебмастер и нажмите «Проверить».</li>
        </ol>
      </div>
    </section>
  );
}
