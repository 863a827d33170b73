import type { BuilderStatus, RebuildPort } from './ports.ts';

/**
 * The Workers rebuild port: POSTs to a deploy hook (Workers Builds, or GitHub's
 * repository_dispatch with a bearer token). The hook URL is a credential, kept as a secret.
 */
export function deployHook(env: { REBUILD_HOOK_URL?: string; REBUILD_HOOK_TOKEN?: string }): RebuildPort | undefined {
  const url = env.REBUILD_HOOK_URL;
  if (!url) return undefined;
  return {
    async request(contentVersion) {
      // GitHub's repository_dispatch (the Actions workflow in .github/workflows/deploy.yml).
      const github = /\/repos\/[^/]+\/[^/]+\/dispatches$/.test(new URL(url).pathname);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'kaspiy-worker' };
      if (env.REBUILD_HOOK_TOKEN) headers.authorization = `Bearer ${env.REBUILD_HOOK_TOKEN}`;
      if (github) headers.accept = 'application/vnd.github+json';
      const body = github
        ? { event_type: 'rebuild-site', client_payload: { contentVersion } }
        : { version: contentVersion };
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) console.error('Rebuild hook answered', res.status);
    },
    /** The local rebuild service answers GET with its state; a production deploy hook does not. */
    async status() {
      try {
        const res = await fetch(url, { method: 'GET' });
        if (!res.ok || !res.headers.get('content-type')?.includes('json')) return null;
        return (await res.json()) as BuilderStatus;
      } catch {
        return null;
      }
    },
  };
}
