// The self-hosted target's control: a bare Node HTTP server that only gives a fixed answer. Its
// latency under the bench's load is the floor that Node itself puts under every route of ours
// on this machine. The bench first gives it, by PUT to a route's path, that route's answer as our
// server sends it (compressed ahead, as the server keeps it, with its headers), then loads that
// path; any other path answers a 12 KB JSON body.
import { createServer, type OutgoingHttpHeaders } from 'node:http';

const padding = Buffer.from(JSON.stringify({ padding: 'x'.repeat(12_000) }));
const answers = new Map<string, { body: Buffer; headers: OutgoingHttpHeaders }>();
const port = Number(process.argv[2] ?? 8806);

createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://control').pathname;
  if (req.method === 'PUT') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // The answer's own headers, as our server sent them (bench/control-answer.ts).
      const given = JSON.parse(req.headers['x-answer-headers']?.toString() ?? '[]') as [string, string][];
      const headers: OutgoingHttpHeaders = Object.fromEntries(given);
      headers['content-length'] = body.length;
      answers.set(path, { body, headers });
      res.writeHead(204).end();
    });
    return;
  }
  const answer = answers.get(path);
  if (answer) {
    res.writeHead(200, answer.headers);
    res.end(answer.body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(padding);
}).listen(port, '127.0.0.1', () => console.log(`listening ${port}`));
