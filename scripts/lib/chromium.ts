/**
 * How the screenshots, the end-to-end journeys and the bench start Debian's Chromium: headless,
 * and kept off the network this machine does not have (no QUIC, background fetches, updates or sync).
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 156 draws the address bar's suggestions as a web page (chrome://omnibox-popup) and
  // loads it in a renderer of its own for every window, headless too: ~0.6 s of CPU in the first
  // seconds, on the same two cores as the page being loaded or measured. A phone's page does not
  // share its CPU with that. Chromium adds this list to the launcher's own (Playwright's,
  // Lighthouse's), so theirs stay in force.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
