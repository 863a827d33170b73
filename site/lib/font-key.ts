// Where a visitor's browser notes that Manrope is in its cache (site/islands/font-loader.ts writes
// it; the tests and the screenshots wait for it). Its own module: Node scripts import it too.
export const FONTS_KEY = 'kaspiy-fonts';
