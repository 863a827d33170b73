export type SaveToLiveTrial = {
  /** From sending the save to every polled page showing it; null if one never did. */
  seconds: number | null;
  /** From the save to /build.json naming a content version that includes it (any page rebuilt). */
  rebuiltSeconds: number | null;
  /** When each polled page first showed the save, in the order asked (null: never did). */
  pageSeconds?: (number | null)[];
  note?: string;
};

export type EditToLiveTrial = SaveToLiveTrial & { title: string };

/** One admin save and what shows it once it is live. */
export type SaveToLive = {
  /** An admin route under /api written with PUT, e.g. `/settings`, `/cabins/3`. */
  path: string;
  body: unknown;
  /** The public pages polled until each shows `shows`. */
  pages: string[];
  /** Text that only a page rendered after the save holds (checked absent before it). */
  shows: string;
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
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!res.ok || !body.success || !cookie) throw new Error(`Admin login failed (${res.status})`);
  return cookie;
}

const page = (baseUrl: string, p: string) =>
  fetch(`${baseUrl}${p}`, { cache: 'no-store' }).then(
    (r) => r.text(),
    () => '',
  );

/**
 * One admin save, then its pages polled every pollMs until each shows `save.shows`. Also notes
 * when /build.json first names a content version past the one before the save, so a page that
 * does not render the change yet still tells how long a rebuild took to go live.
 */
export async function saveToLive(
  baseUrl: string,
  cookie: string,
  save: SaveToLive,
  opts: { pollMs: number; timeoutMs: number },
): Promise<SaveToLiveTrial> {
  // A page that shows the text already would be "live" at the first poll, whatever the build did.
  const early = (await Promise.all(save.pages.map((p) => page(baseUrl, p)))).flatMap((html, i) =>
    html.includes(save.shows) ? [save.pages[i]] : [],
  );
  if (early.length)
    throw new Error(`${early.join(', ')} already show(s) ${JSON.stringify(save.shows)} before the save`);
  const before = (await fetch(`${baseUrl}/api/build-info`).then((r) => r.json())) as { contentVersion: number };
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api${save.path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(save.body),
  });
  if (!res.ok) throw new Error(`PUT /api${save.path} answered ${res.status}: ${await res.text()}`);
  let rebuiltSeconds: number | null = null;
  const pageSeconds: (number | null)[] = save.pages.map(() => null);
  const waiting = () => save.pages.filter((_, i) => pageSeconds[i] === null);
  while (performance.now() - started < opts.timeoutMs) {
    await sleep(opts.pollMs);
    const elapsed = (performance.now() - started) / 1000;
    const pending = save.pages.flatMap((_p, i) => (pageSeconds[i] === null ? [i] : []));
    const [htmls, build] = await Promise.all([
      Promise.all(pending.map((i) => page(baseUrl, save.pages[i]!))),
      fetch(`${baseUrl}/build.json`, { cache: 'no-store' }).then(
        (r) => (r.ok ? (r.json() as Promise<{ contentVersion?: number }>) : null),
        () => null,
      ),
    ]);
    if (rebuiltSeconds === null && (build?.contentVersion ?? -1) > before.contentVersion) rebuiltSeconds = elapsed;
    pending.forEach((i, k) => {
      if (htmls[k]!.includes(save.shows)) pageSeconds[i] = elapsed;
    });
    if (pageSeconds.every((s) => s !== null))
      return { seconds: elapsed, rebuiltSeconds: rebuiltSeconds ?? elapsed, pageSeconds };
    // Rebuilt and still not shown: those pages do not render the change (or were not rebuilt); stop waiting.
    if (rebuiltSeconds !== null && elapsed - rebuiltSeconds > 5) {
      return {
        seconds: null,
        rebuiltSeconds,
        pageSeconds,
        note: `site rebuilt but ${waiting().join(', ')} do(es) not show ${JSON.stringify(save.shows)}`,
      };
    }
  }
  return {
    seconds: null,
    rebuiltSeconds,
    pageSeconds,
    note: `${waiting().join(', ')} not live after ${opts.timeoutMs / 1000} s`,
  };
}

/** The whole-site edit of the `edit` stage: a new hero title, live when `/` shows it. */
export async function editToLive(
  baseUrl: string,
  cookie: string,
  title: string,
  opts: { pollMs: number; timeoutMs: number },
): Promise<EditToLiveTrial> {
  const { pageSeconds: _, ...trial } = await saveToLive(
    baseUrl,
    cookie,
    { path: '/settings', body: { heroTitle: title }, pages: ['/'], shows: title },
    opts,
  );
  return { title, ...trial };
}
