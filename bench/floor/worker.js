// The bench's control: a worker that does nothing but answer a fixed JSON body the size of
// the demo /api/cabins, served by the same `wrangler dev` as the site. Its latency under the
// same load is the floor the local serving path puts under every route of ours.
const body = JSON.stringify({ padding: 'x'.repeat(12_000) });

export default {
  fetch() {
    return new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  },
};
