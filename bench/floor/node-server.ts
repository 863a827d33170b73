// The self-hosted target's control: a bare Node HTTP server that answers a fixed 12 KB JSON
// body, the size of the demo /api/cabins. Its latency under the bench's load is the floor that
// Node itself puts under every route of ours on this machine.
import { createServer } from 'node:http';

const body = JSON.stringify({ padding: 'x'.repeat(12_000) });
const port = Number(process.argv[2] ?? 8806);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}).listen(port, '127.0.0.1', () => console.log(`listening ${port}`));
