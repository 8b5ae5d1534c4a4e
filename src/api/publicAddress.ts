// Whether an address is on the public internet, for what the extension fetches because an answer
// pointed at it (the click-to-load image, src/chat/core/imageLoader.ts). Anything else may be a
// service on this machine or network that trusts its callers: a loopback admin API, a router, a
// cloud metadata endpoint. The addresses arrive already written by a parser (the WHATWG URL
// parser normalizes `2130706433`, `0x7f.1`, `127.1` and `[::ffff:127.0.0.1]`; a DNS lookup
// returns plain text), so this reads only canonical dotted IPv4 and RFC 4291 IPv6 text, and
// anything it cannot read is not public. Bytes and prefixes, not patterns on text.

type Range = readonly [base: readonly number[], bits: number];

/** IPv4 that is not globally reachable (IANA's special-purpose registry). */
const LOCAL_V4: readonly Range[] = [
  v4('0.0.0.0', 8), // "this network"; 0.0.0.0 reaches this machine
  v4('10.0.0.0', 8),
  v4('100.64.0.0', 10), // carrier-grade NAT
  v4('127.0.0.0', 8),
  v4('169.254.0.0', 16), // link-local, and cloud metadata (169.254.169.254)
  v4('172.16.0.0', 12),
  v4('192.0.0.0', 24),
  v4('192.0.2.0', 24), // documentation
  v4('192.88.99.0', 24), // the old 6to4 relay
  v4('192.168.0.0', 16),
  v4('198.18.0.0', 15), // benchmarking
  v4('198.51.100.0', 24),
  v4('203.0.113.0', 24),
  v4('224.0.0.0', 3), // multicast, reserved, and 255.255.255.255 broadcast
];

/** Only global unicast is public; everything outside it (loopback, `::`, mapped, unique-local, link-local, multicast) is not. */
const GLOBAL_V6 = v6('2000::', 3);
/** Inside 2000::/3 but not a host on the internet: protocol assignments (Teredo), documentation, 6to4 (an IPv4 address inside). */
const LOCAL_IN_GLOBAL_V6: readonly Range[] = [v6('2001::', 23), v6('2001:db8::', 32), v6('2002::', 16), v6('3fff::', 20)];
/**
 * NAT64's well-known prefix carries an IPv4 address in its last 4 bytes; an IPv6-only network
 * with DNS64 gives public hosts such addresses, so they are judged by that IPv4 address.
 */
const NAT64 = v6('64:ff9b::', 96);

/** True only for an IPv4 or IPv6 address (brackets allowed) on the public internet. */
export function isPublicAddress(text: string): boolean {
  const bare = /^\[.*\]$/.test(text) ? text.slice(1, -1) : text;
  const four = parseIPv4(bare);
  if (four) return text === bare && isPublicIPv4(four);
  // A zone (`fe80::1%eth0`) only goes with link-local addresses.
  const six = bare.includes('%') ? undefined : parseIPv6(bare);
  if (!six) return false;
  if (inRange(six, NAT64)) return isPublicIPv4(six.slice(12));
  return inRange(six, GLOBAL_V6) && !LOCAL_IN_GLOBAL_V6.some((r) => inRange(six, r));
}

/**
 * A URL's `hostname`, as the WHATWG parser left it: an IP literal is `public` or `local`; a name
 * set aside for local use (`localhost` and below it, mDNS `.local`, `.internal`, `.home.arpa`, a
 * single label that a search domain completes) is `local`; any other name is only known once it
 * is resolved.
 */
export function hostScope(hostname: string): 'public' | 'local' | 'name' {
  if (hostname.startsWith('[') || parseIPv4(hostname)) return isPublicAddress(hostname) ? 'public' : 'local';
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (!name.includes('.') || /(^|\.)(localhost|localdomain|local|internal|home\.arpa)$/.test(name)) return 'local';
  return 'name';
}

function isPublicIPv4(bytes: readonly number[]): boolean {
  return !LOCAL_V4.some((r) => inRange(bytes, r));
}

function inRange(bytes: readonly number[], [base, bits]: Range): boolean {
  if (bytes.length !== base.length) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (base[i >> 3]! & mask)) return false;
  }
  return true;
}

/** Dotted decimal, four parts, no leading zeros (what every parser writes): its 4 bytes. */
function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** RFC 4291 text (`::` once at most, an optional dotted IPv4 tail): its 16 bytes. */
function parseIPv6(text: string): number[] | undefined {
  let groups = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const tail = parseIPv4(text.slice(lastColon + 1));
    if (!tail) return undefined;
    groups = `${text.slice(0, lastColon + 1)}${((tail[0]! << 8) | tail[1]!).toString(16)}:${((tail[2]! << 8) | tail[3]!).toString(16)}`;
  }
  const halves = groups.split('::');
  if (halves.length > 2) return undefined;
  const read = (half: string) => (half === '' ? [] : half.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)));
  const head = read(halves[0]!);
  const tail = halves.length === 2 ? read(halves[1]!) : [];
  const zeros = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const words = [...head, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...tail];
  if (words.length !== 8 || words.some(Number.isNaN) || (halves.length === 2 && zeros < 1)) return undefined;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function v4(text: string, bits: number): Range {
  return [parseIPv4(text)!, bits];
}

function v6(text: string, bits: number): Range {
  return [parseIPv6(text)!, bits];
}
