import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AppEnv } from '../env.ts';

/**
 * The visitor's address as the platform reports it: the Node server's socket (or its trusted
 * proxy's header), Cloudflare's `cf-connecting-ip` (a header clients cannot forge there).
 */
export const clientIp = (c: Context<AppEnv>): string =>
  (c.env.CLIENT_ADDRESS ? c.env.CLIENT_ADDRESS(c.req.raw) : c.req.header('cf-connecting-ip')) ?? 'unknown';

/**
 * Who a limit counts, by address: an IPv4 address as it is, an IPv6 address by its /64, as one
 * home line or phone is handed a whole /64 and could take a fresh address for every request.
 * An IPv4 address written as IPv6 (::ffff:a.b.c.d, as a Node socket reports it) is the IPv4 one;
 * anything unreadable is kept as it came.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/** The visitor's addressKey: what the sign-in, promo-code and price limits count them by. */
export const clientAddressKey = (c: Context<AppEnv>): string => addressKey(clientIp(c));
