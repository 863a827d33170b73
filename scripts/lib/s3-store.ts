import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';

/**
 * Off-site backups in S3-compatible storage sold in Russia (Yandex Object Storage, Selectel,
 * VK Cloud): the settings from the environment, and the few S3 calls a backup needs, signed by
 * aws4fetch. Path-style addresses (endpoint/bucket/key) work with every such service.
 */
export type S3Settings = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** '' or ends with '/'. */
  prefix: string;
  /** How many finished backups to keep in the bucket. */
  keep: number;
};

/** A failure the owner can act on: the message says what went wrong and what to do, in Russian. */
export class S3BackupError extends Error {}

const NAMES = [
  'BACKUP_S3_ENDPOINT',
  'BACKUP_S3_BUCKET',
  'BACKUP_S3_ACCESS_KEY_ID',
  'BACKUP_S3_SECRET_ACCESS_KEY',
] as const;
export const DEFAULT_S3_KEEP = 14;

/**
 * The settings, or null when none of them is set (off-site copies are off). Half a
 * configuration is an error naming what is missing, never a silent local-only backup.
 */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Settings | null {
  const value = (name: string) => env[name]?.trim() ?? '';
  if (NAMES.every((n) => !value(n))) return null;
  const missing = NAMES.filter((n) => !value(n));
  if (missing.length)
    throw new S3BackupError(
      `Не заданы ${missing.join(', ')} (в /etc/kaspiy.env): без них копия не уходит в хранилище. Задайте их или уберите все BACKUP_S3_*.`,
    );
  let endpoint: URL;
  try {
    endpoint = new URL(value('BACKUP_S3_ENDPOINT'));
    if (!/^https?:$/.test(endpoint.protocol)) throw new Error();
  } catch {
    throw new S3BackupError(
      `BACKUP_S3_ENDPOINT=${value('BACKUP_S3_ENDPOINT')} — не адрес хранилища: нужен вида https://storage.yandexcloud.net`,
    );
  }
  const bucket = value('BACKUP_S3_BUCKET');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new S3BackupError(
      `BACKUP_S3_BUCKET=${bucket} — не имя бакета: строчные латинские буквы, цифры, точки и дефисы, от 3 до 63 знаков`,
    );
  // Only plain characters, so keys need no escaping anywhere (URLs, listings, XML).
  const prefix = value('BACKUP_S3_PREFIX').replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._/-]*$/.test(prefix))
    throw new S3BackupError(`BACKUP_S3_PREFIX=${prefix} — допустимы латинские буквы, цифры, «.», «_», «-» и «/»`);
  const keepText = value('BACKUP_S3_KEEP');
  const keep = keepText ? Number(keepText) : DEFAULT_S3_KEEP;
  if (!(Number.isInteger(keep) && keep > 0))
    throw new S3BackupError(`BACKUP_S3_KEEP=${keepText} — нужно целое число копий больше нуля, например 14`);
  return {
    endpoint: endpoint.href.replace(/\/+$/, ''),
    bucket,
    accessKeyId: value('BACKUP_S3_ACCESS_KEY_ID'),
    secretAccessKey: value('BACKUP_S3_SECRET_ACCESS_KEY'),
    region: value('BACKUP_S3_REGION') || 'ru-central1',
    prefix: prefix ? `${prefix}/` : '',
    keep,
  };
}

const TIMEOUT_MS = 10 * 60_000; // a whole database over a slow line
const NETWORK_TRIES = 3;
const unxml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return m ? unxml(m[1]!) : undefined;
};

export class S3Store {
  private readonly aws: AwsClient;
  readonly settings: S3Settings;
  constructor(settings: S3Settings) {
    this.settings = settings;
    // aws4fetch retries 5xx and 429 itself; a refused connection is retried below.
    this.aws = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      service: 's3',
      region: settings.region,
      retries: 3,
      initRetryMs: 300,
    });
  }

  /** Where the bucket is, for messages: https://storage.yandexcloud.net/bucket/prefix/ */
  get where(): string {
    return `${this.settings.endpoint}/${this.settings.bucket}/${this.settings.prefix}`;
  }

  private url(key: string, query: Record<string, string> = {}): string {
    const url = new URL(`${this.settings.endpoint}/${this.settings.bucket}${key ? `/${key}` : ''}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.href.replace(/=(?=&|$)/g, ''); // `?delete`, not `?delete=`
  }

  private async request(
    method: string,
    url: string,
    init: { body?: Uint8Array<ArrayBuffer> | string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.aws.fetch(url, {
          method,
          body: init.body,
          headers: init.headers,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        if ((err as Error).name === 'TimeoutError')
          throw new S3BackupError(
            `хранилище ${this.settings.endpoint} не ответило за ${TIMEOUT_MS / 60_000} минут. Проверьте связь сервера с интернетом и попробуйте ещё раз.`,
          );
        if (attempt < NETWORK_TRIES) {
          await new Promise((r) => setTimeout(r, 500 * attempt));
          continue;
        }
        throw new S3BackupError(
          `не удалось связаться с хранилищем ${this.settings.endpoint} (${cause?.code ?? cause?.message ?? (err as Error).message}). Проверьте BACKUP_S3_ENDPOINT и что сервер выходит в интернет, затем попробуйте ещё раз.`,
        );
      }
    }
  }

  /** Turns an S3 error answer into what the owner should check. */
  private async fail(res: Response, doing: string): Promise<never> {
    const xml = await res.text().catch(() => '');
    const code = tag(xml, 'Code') ?? '';
    const detail = [res.status, code, tag(xml, 'Message')].filter(Boolean).join(' ');
    const s = this.settings;
    if (res.status === 403 || /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/.test(code)) {
      throw new S3BackupError(
        `хранилище отказало в доступе, ${doing} (${detail}). Проверьте BACKUP_S3_ACCESS_KEY_ID и BACKUP_S3_SECRET_ACCESS_KEY (статический ключ сервисного аккаунта) и что у сервисного аккаунта есть доступ к бакету «${s.bucket}» (роль storage.editor).`,
      );
    }
    if (code === 'NoSuchBucket')
      throw new S3BackupError(
        `в хранилище ${s.endpoint} нет бакета «${s.bucket}» (${detail}). Создайте его или исправьте BACKUP_S3_BUCKET.`,
      );
    if (/AuthorizationHeaderMalformed|PermanentRedirect|IllegalLocationConstraint/.test(code) || res.status === 301) {
      throw new S3BackupError(
        `хранилище не приняло регион «${s.region}», ${doing} (${detail}). Проверьте BACKUP_S3_REGION (у Yandex Object Storage — ru-central1) и BACKUP_S3_ENDPOINT.`,
      );
    }
    throw new S3BackupError(
      `хранилище ответило ошибкой, ${doing} (${detail || res.statusText}). Попробуйте ещё раз; если повторится — проверьте настройки BACKUP_S3_* и состояние хранилища.`,
    );
  }

  async put(key: string, body: Uint8Array<ArrayBuffer>, contentType: string): Promise<void> {
    // The body's real SHA-256 instead of aws4fetch's UNSIGNED-PAYLOAD: the storage refuses bytes
    // damaged on the way (BadDigest / XAmzContentSHA256Mismatch) instead of keeping them.
    const sha256 = createHash('sha256').update(body).digest('hex');
    const res = await this.request('PUT', this.url(key), {
      body,
      headers: { 'content-type': contentType, 'x-amz-content-sha256': sha256 },
    });
    if (!res.ok) await this.fail(res, `когда записывался ${key}`);
    await res.body?.cancel();
  }

  /** The object's bytes, or null if there is no such key. */
  async get(key: string): Promise<Uint8Array | null> {
    const res = await this.request('GET', this.url(key));
    if (res.status === 404 && !/NoSuchBucket/.test(await res.clone().text())) return null;
    if (!res.ok) await this.fail(res, `когда читался ${key}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Every key under `prefix`, page by page (ListObjectsV2). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.request(
        'GET',
        this.url('', { 'list-type': '2', prefix, ...(token ? { 'continuation-token': token } : {}) }),
      );
      if (!res.ok) await this.fail(res, 'когда читался список копий');
      const xml = await res.text();
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) keys.push(tag(m[1]!, 'Key')!);
      token = tag(xml, 'IsTruncated') === 'true' ? tag(xml, 'NextContinuationToken') : undefined;
    } while (token);
    return keys;
  }

  /** Deletes keys, up to 1000 a request (DeleteObjects; Content-MD5 is required by S3). */
  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const body = `<?xml version="1.0" encoding="UTF-8"?><Delete><Quiet>true</Quiet>${keys
        .slice(i, i + 1000)
        .map((k) => `<Object><Key>${k}</Key></Object>`)
        .join('')}</Delete>`;
      const md5 = createHash('md5').update(body).digest('base64');
      const res = await this.request('POST', this.url('', { delete: '' }), {
        body,
        headers: { 'content-type': 'application/xml', 'content-md5': md5 },
      });
      if (!res.ok) await this.fail(res, 'когда удалялись старые копии');
      const xml = await res.text();
      const failed = /<Error>([\s\S]*?)<\/Error>/.exec(xml);
      if (failed)
        throw new S3BackupError(
          `хранилище не удалило ${tag(failed[1]!, 'Key')} (${tag(failed[1]!, 'Code')} ${tag(failed[1]!, 'Message') ?? ''}). Проверьте права сервисного аккаунта на удаление (роль storage.editor).`,
        );
    }
  }
}
