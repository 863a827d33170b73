// An island's own styles travel with its script (imported `?inline`), not in every page's HTML:
// adopted into the document once, when the island first runs.
const adopted = new Set<string>();

export function adoptStyles(css: string) {
  if (adopted.has(css) || typeof document === 'undefined') return;
  adopted.add(css);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
