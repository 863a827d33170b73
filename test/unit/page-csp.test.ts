import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownHashesOnly } from '../../scripts/lib/page-csp.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const page = (policy: string, body: string) =>
  `<!DOCTYPE html><html><head><meta http-equiv="content-security-policy" content="${policy}"></head><body>${body}</body></html>`;
const policyOf = (html: string) => /content="([^"]*)"/.exec(html)![1]!;

describe("a page's CSP lists its own inline scripts and styles only", () => {
  const own = 'console.log(1)';
  const css = 'body{color:red}';
  const other = 'alert(2)';
  const html = page(
    `default-src 'self';script-src 'self' ${hash(own)} ${hash(other)} 'sha256-AAAA+/=';style-src 'self' ${hash(css)} ${hash('p{}')};style-src-attr 'unsafe-inline'`,
    `<style>${css}</style><script type="module">${own}</script><script type="module" src="/_astro/x.js"></script><script type="application/ld+json">{}</script>`,
  );

  it('should keep the hashes of what the page holds and drop every other one', () => {
    expect(policyOf(ownHashesOnly(html))).toBe(
      `default-src 'self';script-src 'self' ${hash(own)};style-src 'self' ${hash(css)};style-src-attr 'unsafe-inline'`,
    );
  });

  it('should leave a page without a CSP, or whose hashes are all its own, as it is', () => {
    expect(ownHashesOnly('<p>x</p>')).toBe('<p>x</p>');
    const strict = page(`script-src 'self' ${hash(own)}`, `<script>${own}</script>`);
    expect(ownHashesOnly(strict)).toBe(strict);
  });
});
