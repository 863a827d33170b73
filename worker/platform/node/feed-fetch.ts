import { lookup as systemLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';
import { FeedAddressRefused, type FeedFetchPort } from '../ports.ts';

/** A host name's addresses: by default the system's resolver (hosts file, then DNS), as any fetch would. */
export type Resolve = (hostname: string) => Promise<string[]>;

const systemResolve: Resolve = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Whether a calendar may be fetched from this address: public unicast only, loopback too where
 * allowed (local runs). Private, link-local, CGNAT, unique-local, multicast, reserved, NAT64,
 * 6to4, Teredo and IPv4-mapped IPv6 (as the literal check refuses ::ffff:…) are refused.
 */
export function feedAddressAllowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.parse(address).range();
  return range === 'unicast' || (range === 'loopback' && allowLoopback);
}

/**
 * The socket's own lookup: resolves once, refuses the connection if any answer is inside, and
 * hands the socket exactly the answers it checked, so no second lookup (a rebinding DNS server's
 * next answer) decides where it connects.
 */
function checkedLookup(resolve: Resolve, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const inside = addresses.find((a) => !feedAddressAllowed(a, allowLoopback));
        if (inside !== undefined) return callback(new FeedAddressRefused(hostname, inside), '', 0);
        const entries = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((e) => !options.family || e.family === options.family);
        if (entries.length === 0)
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * The feed fetch of the self-hosted server: the host is resolved and checked before connecting,
 * on every hop (the caller follows redirects itself). No connection is kept alive, so every
 * request resolves and checks afresh. `resolve` lets tests point it at their own DNS server.
 */
export function nodeFeedFetch(opts: { resolve?: Resolve } = {}): FeedFetchPort {
  const resolve = opts.resolve ?? systemResolve;
  const agents = new Map<boolean, Agent>();
  const agentFor = (allowLoopback: boolean) => {
    let agent = agents.get(allowLoopback);
    if (!agent)
      agents.set(
        allowLoopback,
        (agent = new Agent({ pipelining: 0, connect: { lookup: checkedLookup(resolve, allowLoopback) } })),
      );
    return agent;
  };
  return async (url, { signal, headers, allowLoopback }) => {
    // A literal address is never looked up: it is checked here, with the same ranges.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !feedAddressAllowed(literal, allowLoopback))
      throw new FeedAddressRefused(url.hostname, literal);
    try {
      const res = await fetch(url, { redirect: 'manual', signal, headers, dispatcher: agentFor(allowLoopback) });
      return res as unknown as Response;
    } catch (err) {
      // undici reports a failed connection as TypeError('fetch failed') with the lookup's error as its cause.
      const cause = (err as { cause?: unknown }).cause;
      throw cause instanceof FeedAddressRefused ? cause : err;
    }
  };
}
