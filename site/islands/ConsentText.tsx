// The words beside every consent checkbox (review, «Напишите нам», booking request): the consent
// itself is a document of its own (/consent, 152-ФЗ since 1 September 2025), the policy another.
export function ConsentText() {
  return (
    <span>
      Я согласен на{' '}
      <a href="/consent" target="_blank" rel="noopener">
        обработку персональных данных
      </a>{' '}
      <span className="req">*</span> (
      <a href="/privacy" target="_blank" rel="noopener">
        политика конфиденциальности
      </a>
      )
    </span>
  );
}
