/** A message to show once after the browser moved to a new admin path (kept in sessionStorage). */
const FLASH_KEY = 'kaspiy-admin-flash';

export function setFlash(text: string) {
  try {
    sessionStorage.setItem(FLASH_KEY, text);
  } catch {
    // Without storage the move still works; only the message is lost.
  }
}

export function takeFlash(): string | null {
  try {
    const text = sessionStorage.getItem(FLASH_KEY);
    if (text) sessionStorage.removeItem(FLASH_KEY);
    return text;
  } catch {
    return null;
  }
}
