import { once } from 'node:events';
import { steadyServer } from './steady-server.ts';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an HTTP mail API on 127.0.0.1, in the shape of Resend's `POST /emails`
 * (resend.com/docs/api-reference/emails/send-email): `Authorization: Bearer <key>`, a JSON body
 * `{ from, to: [..], subject, text }`, `{ id }` back. A missing key is refused with 401 as Resend
 * does, a body without sender, recipients or subject with 422. A send with an `Idempotency-Key`
 * it took before is answered with the first send's id and not sent again, as Resend does for 24 h.
 *
 * The tests drive it over HTTP (they may run inside workerd, which cannot start a server):
 * - `GET /_stand-in/mails`: every mail it accepted, with the Authorization header;
 * - `POST /_stand-in/outage` `{ down }`: while down every send answers 503, as a provider's outage;
 * - `POST /_stand-in/slow` `{ to, ms }`: a send to that address is taken at once and answered `ms`
 *   later (an answer lost on the way, as the sender sees it when it stops waiting first).
 * `hang: true` makes it never answer a send (a timeout test).
 */
export type StandInMail = {
  authorization: string | null;
  idempotencyKey: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
};

export async function startMailApiStandIn(
  opts: { hang?: boolean } = {},
): Promise<{ url: string; mails: StandInMail[]; close: () => Promise<void> }> {
  const mails: StandInMail[] = [];
  const sentByKey = new Map<string, string>();
  const slowTo = new Map<string, number>();
  let down = false;
  const server = steadyServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return json(400, { statusCode: 400, name: 'invalid_json', message: 'Invalid JSON' });
      }
      if (path === '/_stand-in/mails') return json(200, mails);
      if (path === '/_stand-in/slow' && req.method === 'POST') {
        if (typeof body.to === 'string') slowTo.set(body.to, typeof body.ms === 'number' ? body.ms : 0);
        return json(200, { slow: Object.fromEntries(slowTo) });
      }
      if (path === '/_stand-in/outage' && req.method === 'POST') {
        down = body.down === true;
        return json(200, { down });
      }
      if (req.method !== 'POST' || path !== '/emails')
        return json(404, { statusCode: 404, name: 'not_found', message: 'Route not found' });
      if (opts.hang) return; // never answered
      const authorization = req.headers.authorization ?? null;
      if (!authorization?.startsWith('Bearer ') || authorization.length <= 'Bearer '.length) {
        return json(401, {
          statusCode: 401,
          name: 'missing_api_key',
          message: 'Missing API key in the authorization header',
        });
      }
      if (down)
        return json(503, {
          statusCode: 503,
          name: 'service_unavailable',
          message: 'We are experiencing an outage, try again later',
        });
      const { from, to, subject, text } = body as { from?: unknown; to?: unknown; subject?: unknown; text?: unknown };
      if (
        typeof from !== 'string' ||
        !from ||
        !Array.isArray(to) ||
        to.length === 0 ||
        typeof subject !== 'string' ||
        !subject
      ) {
        return json(422, { statusCode: 422, name: 'validation_error', message: 'from, to and subject are required' });
      }
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const slow = Math.max(0, ...(to as string[]).map((t) => slowTo.get(t) ?? 0));
      const answer = (body: unknown) => (slow > 0 ? setTimeout(() => json(200, body), slow) : json(200, body));
      const before = idempotencyKey === null ? undefined : sentByKey.get(idempotencyKey);
      if (before) return answer({ id: before });
      mails.push({
        authorization,
        idempotencyKey,
        from,
        to: to as string[],
        subject,
        text: typeof text === 'string' ? text : '',
      });
      const id = `mail-${mails.length}`;
      if (idempotencyKey !== null) sentByKey.set(idempotencyKey, id);
      return answer({ id });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mails,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
