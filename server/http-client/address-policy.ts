/**
 * Which addresses outbound HTTP may connect to: public ones, and non-public ones (loopback, private, link-local,
 * CGNAT, cloud metadata, unspecified, reserved) only when configuration allows them. Works on the address
 * actually connected to, in any spelling: IPv4-mapped, -compatible, NAT64 and 6to4 IPv6 addresses are judged
 * by the IPv4 address inside them.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { HttpClientConfig } from './http-client-config';

export type AddressKind =
  'public' | 'loopback' | 'private' | 'link-local' | 'cgnat' | 'metadata' | 'unspecified' | 'reserved';

interface Range {
  base: bigint;
  bits: number;
  kind: AddressKind;
}

function ipv4ToNumber(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address (`::`, embedded dotted IPv4 and a zone are handled). */
function ipv6ToNumber(ip: string): bigint {
  let text = ip.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - headParts.length - tailParts.length).fill('0');
  return [...headParts, ...zeros, ...tailParts].reduce(
    (n, part) => (n << 16n) | BigInt(parseInt(part, 16)),
    0n,
  );
}

const v4 = (cidr: string, kind: AddressKind): Range => {
  const [ip, bits] = cidr.split('/');
  return { base: ipv4ToNumber(ip), bits: Number(bits), kind };
};
const v6 = (cidr: string, kind: AddressKind): Range => {
  const [ip, bits] = cidr.split('/');
  return { base: ipv6ToNumber(ip), bits: Number(bits), kind };
};

/** Most specific first: the metadata addresses sit inside link-local and unique-local ranges. */
const IPV4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'),
  v4('100.100.100.200/32', 'metadata'),
  v4('0.0.0.0/8', 'unspecified'),
  v4('127.0.0.0/8', 'loopback'),
  v4('10.0.0.0/8', 'private'),
  v4('172.16.0.0/12', 'private'),
  v4('192.168.0.0/16', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('169.254.0.0/16', 'link-local'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'reserved'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: Range[] = [
  v6('fd00:ec2::254/128', 'metadata'),
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'),
  v6('ff00::/8', 'reserved'),
  v6('100::/64', 'reserved'),
  v6('2001:db8::/32', 'reserved'),
  // Local-use NAT64 (RFC 8215): translates to addresses of the local network, never a public one.
  v6('64:ff9b:1::/48', 'private'),
];

function inRange(value: bigint, width: number, range: Range): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

function kindOfIpv4Number(value: bigint): AddressKind {
  return IPV4_RANGES.find((r) => inRange(value, 32, r))?.kind ?? 'public';
}

/** The IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(value: bigint): bigint | undefined {
  const high96 = value >> 32n;
  if (high96 === 0xffffn || high96 === 0n) return value & 0xffffffffn; // ::ffff:a.b.c.d, ::a.b.c.d
  if (high96 === 0xffff0000n) return value & 0xffffffffn; // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
  if (high96 === 0x0064ff9b0000000000000000n) return value & 0xffffffffn; // 64:ff9b::/96
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 2002:aabb:ccdd::/48
  return undefined;
}

/** What kind of address `ip` is; anything that is not an IP address counts as reserved (never connected to). */
export function addressKind(ip: string): AddressKind {
  if (isIPv4(ip)) return kindOfIpv4Number(ipv4ToNumber(ip));
  const bare = ip.replace(/^\[|\]$/g, '');
  if (!isIPv6(bare)) return 'reserved';
  const value = ipv6ToNumber(bare);
  const kind = IPV6_RANGES.find((r) => inRange(value, 128, r))?.kind;
  if (kind) return kind;
  const inner = embeddedIpv4(value);
  return inner === undefined ? 'public' : kindOfIpv4Number(inner);
}

function inCidr(ip: string, entry: string): boolean {
  const [base, bitsText] = entry.split('/');
  const bare = ip.replace(/^\[|\]$/g, '');
  if (isIPv4(base) && isIPv4(bare)) {
    return inRange(ipv4ToNumber(bare), 32, {
      base: ipv4ToNumber(base),
      bits: Number(bitsText ?? 32),
      kind: 'public',
    });
  }
  if (isIPv6(base) && isIPv6(bare)) {
    return inRange(ipv6ToNumber(bare), 128, {
      base: ipv6ToNumber(base),
      bits: Number(bitsText ?? 128),
      kind: 'public',
    });
  }
  return false;
}

/** Judges (host name, address) pairs against the configuration. */
export class AddressPolicy {
  private readonly names: Set<string>;
  private readonly ranges: string[];

  constructor(private readonly config: Pick<HttpClientConfig, 'allowPrivate' | 'allowHosts'>) {
    const isRange = (e: string) => isIPv4(e.split('/')[0]) || isIPv6(e.split('/')[0].replace(/^\[|\]$/g, ''));
    this.names = new Set(config.allowHosts.filter((e) => !isRange(e)).map((e) => e.replace(/\.$/, '')));
    this.ranges = config.allowHosts.filter(isRange).map((e) => e.replace(/^\[|\]$/g, ''));
  }

  /** Why connecting to `ip` for `hostname` is refused, or undefined when it is allowed. */
  refusal(hostname: string, ip: string): AddressKind | undefined {
    const kind = addressKind(ip);
    if (kind === 'public') return undefined;
    const name = hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
    if (this.names.has(name)) return undefined;
    if (this.ranges.some((range) => inCidr(ip, range))) return undefined;
    if (this.config.allowPrivate && kind !== 'metadata') return undefined;
    return kind;
  }
}
