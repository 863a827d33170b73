import { request } from 'node:http';

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/**
 * A request exactly as written, to a server on `baseUrl`: fetch would tidy `..` and `%2e%2e`
 * away before sending, and add an Accept-Encoding of its own.
 */
export function rawRequest(baseUrl: string, pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request({ hostname, port, path: pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
