import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Bindings } from '../../env.ts';
import type { RebuildPort } from '../ports.ts';
import { diskMedia } from './disk-media.ts';
import { nodeFeedFetch } from './feed-fetch.ts';
import { applyMigrations } from './migrate.ts';
import { siteFiles } from './site-files.ts';
import { openSqlite, type SqliteFile } from './sqlite.ts';

export type NodeStorageOptions = {
  /** DATA_DIR: the SQLite file, media/ and the built site live here. */
  dataDir: string;
  /** The migrations folder drizzle-kit writes (the same one wrangler applies to D1). */
  migrationsDir: string;
  /** The built site the server serves; defaults to DATA_DIR/site. */
  siteDir?: string;
};

export type NodeStorage = {
  db: SqliteFile;
  /** The ports every request gets; the per-request client address is added by `nodeBindings`. */
  bindings: Omit<Bindings, 'CLIENT_ADDRESS'>;
  paths: { dataDir: string; dbFile: string; mediaDir: string; siteDir: string };
  close(): void;
};

/** Opens DATA_DIR: creates the folders, opens and migrates the database, fills the ports. */
export async function openNodeStorage(
  opts: NodeStorageOptions & { adminPassword?: string; rebuild?: RebuildPort },
): Promise<NodeStorage> {
  const dataDir = path.resolve(opts.dataDir);
  const mediaDir = path.join(dataDir, 'media');
  const siteDir = path.resolve(opts.siteDir ?? path.join(dataDir, 'site'));
  mkdirSync(mediaDir, { recursive: true });
  const dbFile = path.join(dataDir, 'kaspiy.sqlite');
  const db = openSqlite(dbFile);
  await applyMigrations(db, opts.migrationsDir);
  return {
    db,
    bindings: {
      DB: db,
      MEDIA: diskMedia(mediaDir),
      ASSETS: siteFiles(() => siteDir),
      REBUILD: opts.rebuild,
      ADMIN_PASSWORD: opts.adminPassword,
      // Feeds are checked after DNS here: a public name must not lead into the owner's network.
      FEED_FETCH: nodeFeedFetch(),
    },
    paths: { dataDir, dbFile, mediaDir, siteDir },
    close: () => db.close(),
  };
}

/**
 * The visitor's address: the socket's, or with TRUSTED_PROXY=1 what the proxy in front says
 * (X-Real-IP, else the last X-Forwarded-For entry: the one our own proxy added; earlier ones
 * are whatever the client claimed).
 */
export function clientAddressOf(incoming: { socket: { remoteAddress?: string } } | undefined, trustedProxy: boolean) {
  return (req: Request): string | undefined => {
    if (trustedProxy) {
      const real = req.headers.get('x-real-ip')?.trim();
      if (real) return real;
      const forwarded = req.headers
        .get('x-forwarded-for')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (forwarded?.length) return forwarded[forwarded.length - 1];
    }
    return incoming?.socket.remoteAddress ?? undefined;
  };
}
