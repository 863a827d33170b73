// The icons the admin panel's login screen draws (its notices, its fields' errors, the logo), in a
// module of their own: the screen a signed-out visitor loads then carries these five and not the
// panel's other icons, which sit in components/icons.ts with the rest (about 1.4 KB gzipped).
// Each is the inner markup of an <svg viewBox="0 0 24 24">, as there.

export const iconClose = '<path d="M18 6 6 18M6 6l12 12"/>';
export const iconLogo =
  '<path d="M6 10.5 12 5l6 5.5M8.5 10v2.5M15.5 10v2.5"/><path d="M2 16c2.5 0 2.5-1.8 5-1.8s2.5 1.8 5 1.8 2.5-1.8 5-1.8 2.5 1.8 5 1.8M2 20.2c2.5 0 2.5-1.8 5-1.8s2.5 1.8 5 1.8 2.5-1.8 5-1.8 2.5 1.8 5 1.8"/>';
export const iconCheck = '<path d="m5 12.5 4.5 4.5L19 7.5"/>';
export const iconX = '<path d="M17 7 7 17M7 7l10 10"/>';
export const iconRefresh =
  '<path d="M20 11a8 8 0 0 0-14.3-4.5L4 8.5M4 4v4.5h4.5M4 13a8 8 0 0 0 14.3 4.5l1.7-2M20 20v-4.5h-4.5"/>';
