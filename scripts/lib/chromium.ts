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
];
