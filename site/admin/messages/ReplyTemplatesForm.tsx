// «Сообщения» → «Шаблоны и автоответ»: the owner's ready answers, offered in every thread filled for
// its booking, and the automatic answer to a guest who writes outside the owner's hours. What is
// typed stays in the form until the server has it: a refused or failed save loses nothing.
import { useState } from 'react';
import { PLACEHOLDERS } from '../../../schema/guest-page.ts';
import {
  AUTO_ANSWER_MAX,
  REPLY_TEMPLATES_MAX,
  TEMPLATE_NAME_MAX,
  type ReplyTemplates,
} from '../../../schema/reply-templates.ts';
import { REPLY_MAX_LENGTH } from '../../../schema/threads.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { tabHref } from '../ui/hash.ts';
import { useNotify } from '../ui/Notice.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

export function ReplyTemplatesPage() {
  const { state, reload } = useLoad(() => call(client().admin['reply-templates'].$get()));
  return (
    <section aria-labelledby="templates-title">
      <p>
        <a className="btn btn--ghost btn--sm" href={tabHref('messages')}>
          ← Все сообщения
        </a>
      </p>
      <h3 id="templates-title">Шаблоны и автоответ</h3>
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && <TemplatesForm initial={state.data} />}
    </section>
  );
}

function TemplatesForm({ initial }: { initial: ReplyTemplates }) {
  const notify = useNotify();
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const setTemplate = (i: number, patch: Partial<ReplyTemplates['templates'][number]>) =>
    setValue((v) => ({ ...v, templates: v.templates.map((t, j) => (j === i ? { ...t, ...patch } : t)) }));
  const setAuto = (patch: Partial<ReplyTemplates['autoAnswer']>) =>
    setValue((v) => ({ ...v, autoAnswer: { ...v.autoAnswer, ...patch } }));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError('');
    try {
      setValue(await call(client().admin['reply-templates'].$put({ json: value })));
      notify.success('Шаблоны сохранены');
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      setError(describeError(err, 'Не сохранилось, всё введённое осталось в форме'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="templates" onSubmit={(e) => void save(e)} noValidate>
      <p className="alert alert--info">
        Шаблон можно вставить в ответ одним нажатием. Подстановки: {PLACEHOLDERS.join(', ')}. В чатах Авито шаблоны со
        ссылками не предлагаются: правила Авито запрещают уводить гостя с площадки.
      </p>
      {value.templates.map((t, i) => (
        <fieldset key={i} className="templates__item">
          <legend>Шаблон {i + 1}</legend>
          <Field label="Название" id={`template-name-${i}`}>
            {(p) => (
              <input
                {...p}
                className="input"
                maxLength={TEMPLATE_NAME_MAX}
                value={t.name}
                onChange={(e) => setTemplate(i, { name: e.target.value })}
              />
            )}
          </Field>
          <Field label="Текст" id={`template-body-${i}`}>
            {(p) => (
              <textarea
                {...p}
                className="input"
                rows={3}
                maxLength={REPLY_MAX_LENGTH}
                value={t.body}
                onChange={(e) => setTemplate(i, { body: e.target.value })}
              />
            )}
          </Field>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={() => setValue((v) => ({ ...v, templates: v.templates.filter((_, j) => j !== i) }))}
          >
            Удалить шаблон «{t.name || i + 1}»
          </button>
        </fieldset>
      ))}
      {value.templates.length < REPLY_TEMPLATES_MAX && (
        <p>
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => setValue((v) => ({ ...v, templates: [...v.templates, { name: '', body: '' }] }))}
          >
            Добавить шаблон
          </button>
        </p>
      )}
      <fieldset className="templates__item">
        <legend>Автоответ в нерабочее время</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={value.autoAnswer.enabled}
            onChange={(e) => setAuto({ enabled: e.target.checked })}
          />{' '}
          Отвечать гостю, написавшему в мессенджер в эти часы (один раз за ночь)
        </label>
        <div className="templates__hours">
          <Field label="С (по Москве)" id="auto-answer-from">
            {(p) => (
              <input
                {...p}
                type="time"
                className="input"
                value={value.autoAnswer.from}
                onChange={(e) => setAuto({ from: e.target.value })}
              />
            )}
          </Field>
          <Field label="До" id="auto-answer-to">
            {(p) => (
              <input
                {...p}
                type="time"
                className="input"
                value={value.autoAnswer.to}
                onChange={(e) => setAuto({ to: e.target.value })}
              />
            )}
          </Field>
        </div>
        <Field label="Текст автоответа" id="auto-answer-body">
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={2}
              maxLength={AUTO_ANSWER_MAX}
              value={value.autoAnswer.body}
              onChange={(e) => setAuto({ body: e.target.value })}
            />
          )}
        </Field>
      </fieldset>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={saving}>
        {saving ? 'Сохранение…' : 'Сохранить шаблоны'}
      </button>
    </form>
  );
}
