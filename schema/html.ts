// HTML written by hand in template strings (a gallery item, a search result, an icon), where no
// JSX or Astro expression escapes the text. In schema/ because both the site and the worker
// write such HTML, and worker/ never imports from site/.

/** `text` safe inside an element and inside a double- or single-quoted attribute. */
export const escapeHtml = (text: string | number): string =>
  String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
