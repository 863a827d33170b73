/**
 * An SVG as a `data:` URL, readable and short: the few characters a URL cannot carry as they are
 * are escaped, and double quotes become single ones (the attribute around it uses double quotes).
 */
export function svgDataUri(svg: string): string {
  const text = svg.trim().replace(/\s+/g, ' ').replaceAll('"', "'");
  return `data:image/svg+xml,${text.replace(/[%#<>?\[\]\\^`{|}\n]/g, encodeURIComponent)}`;
}
