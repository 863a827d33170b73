// The bench's control: a worker that does nothing but give a fixed answer, served by the same
// `wrangler dev` as the site. Its latency under the same load is the floor the local serving
// path puts under every route of ours. The bench first gives it, by PUT to a route's path, that
// route's own answer as our worker makes it, with its headers (uncompressed: wrangler dev
// compresses both alike for a browser), then loads that path; any other path answers a 12 KB JSON body.
const padding = JSON.stringify({ padding: 'x'.repeat(12_000) });
const answers = new Map();

export default {
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (req.method === 'PUT') {
      // The answer's own headers, as our worker made them (bench/control-answer.ts).
      answers.set(path, {
        body: await req.arrayBuffer(),
        headers: JSON.parse(req.headers.get('x-answer-headers') ?? '[]'),
      });
      return new Response(null, { status: 204 });
    }
    const answer = answers.get(path);
    if (!answer)
      return new Response(padding, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    return new Response(answer.body, { headers: answer.headers });
  },
};
