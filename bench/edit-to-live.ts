export type EditToLiveTrial = {
  title: string;
  /** From sending PUT /api/settings to `/` serving the new hero title; null if it never did. */
  seconds: number | null;
  /** From the save to /build.json naming a content version that includes it (any page rebuilt). */
  rebuiltSeconds: number | null;
  note?: string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signs in as the admin and returns the session cookie. */
export async function adminLogin(baseUrl: string, password: string, username = 'admin'): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { success?: boolean };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!res.ok || !body.success || !cookie) throw new Error(`Admin login failed (${res.status})`);
  return cookie;
}

/**
 * One admin save of a new hero title, then `/` polled every pollMs until it shows the title.
 * Also notes when /build.json first names a content version past the one before the save, so a
 * page that does not render the title yet still tells how long a rebuild took to go live.
 */
export async function editToLive(
  baseUrl: string,
  cookie: string,
  title: string,
  opts: { pollMs: number; timeoutMs: number },
): Promise<EditToLiveTrial> {
  const before = (await fetch(`${baseUrl}/api/build-info`).then((r) => r.json())) as { contentVersion: number };
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ heroTitle: title }),
  });
  if (!res.ok) throw new Error(`PUT /api/settings answered ${res.status}: ${await res.text()}`);
  let rebuiltSeconds: number | null = null;
  while (performance.now() - started < opts.timeoutMs) {
    await sleep(opts.pollMs);
    const elapsed = (performance.now() - started) / 1000;
    const [home, build] = await Promise.all([
      fetch(`${baseUrl}/`, { cache: 'no-store' }).then((r) => r.text(), () => ''),
      fetch(`${baseUrl}/build.json`, { cache: 'no-store' }).then((r) => (r.ok ? (r.json() as Promise<{ contentVersion?: number }>) : null), () => null),
    ]);
    if (rebuiltSeconds === null && (build?.contentVersion ?? -1) > before.contentVersion) rebuiltSeconds = elapsed;
    if (home.includes(title)) return { title, seconds: elapsed, rebuiltSeconds: rebuiltSeconds ?? elapsed };
    // Rebuilt and still no title: the home page does not render heroTitle; stop waiting.
    if (rebuiltSeconds !== null && elapsed - rebuiltSeconds > 5) {
      return { title, seconds: null, rebuiltSeconds, note: 'site rebuilt but `/` does not show heroTitle' };
    }
  }
  return { title, seconds: null, rebuiltSeconds, note: `not live after ${opts.timeoutMs / 1000} s` };
}
