/** The current time in ms. One place, so tests can move the clock with vi.setSystemTime. */
export const now = (): number => Date.now();
