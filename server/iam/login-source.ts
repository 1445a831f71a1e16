/**
 * The source of a login attempt, the unit a login lock holds for: the client's address, an IPv4-mapped IPv6
 * address as its IPv4 form, and an IPv6 address by its /64 network (one host usually holds a whole /64, so
 * counting single IPv6 addresses would give an attacker billions of fresh sources).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** A request that came without a socket address (an in-process call). */
export const LOCAL_SOURCE = 'local';

function ipv6Groups(address: string): number[] | undefined {
  const [head, tail, ...rest] = address.split('::');
  if (rest.length > 0) return undefined;
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((g) => (g.includes('.') ? NaN : Number.parseInt(g, 16))) : [];
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...left, ...Array<number>(Math.max(0, missing)).fill(0), ...right];
  return groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff) ? undefined : groups;
}

export function loginSourceOf(ip: string | undefined): string {
  if (ip === undefined || ip === '') return LOCAL_SOURCE;
  const zoneless = ip.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(zoneless);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(zoneless)) return zoneless;
  if (isIPv6(zoneless)) {
    const groups = ipv6Groups(zoneless);
    if (groups)
      return `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(':')}::/64`;
  }
  return zoneless.slice(0, 64);
}
