import * as assert from 'node:assert/strict';
import { BlockList } from 'node:net';
import { hostScope, isPublicAddress } from '../../src/api/publicAddress';

// Which addresses the image loader may reach (issue 27, item 6): its own parser of IP literals,
// held to a table of spellings, to the forms the WHATWG URL parser normalizes, and to Node's
// BlockList (a separate implementation of prefix matching) over thousands of addresses.

/** A table written as whitespace-separated words. */
const words = (text: string) => text.trim().split(/\s+/);

describe('public addresses', () => {
  it('knows public IPv4 and IPv6 addresses, including the edges of every private range', () => {
    const publicOnes = words(`
      8.8.8.8 93.184.216.34 9.255.255.255 11.0.0.0 100.63.255.255 100.128.0.0 126.255.255.255 128.0.0.0
      169.253.255.255 172.15.255.255 172.32.0.0 192.167.255.255 192.169.0.0 223.255.255.255
      2606:4700::1111 2001:4860:4860::8888 [2a00:1450:4001::1] 2001:200::1 64:ff9b::808:808 64:ff9b::8.8.8.8
    `);
    for (const ip of publicOnes) assert.equal(isPublicAddress(ip), true, ip);
  });

  it('refuses loopback, private, link-local, CGNAT, mapped, NAT64-local, multicast and reserved addresses', () => {
    const localOnes = words(`
      127.0.0.1 127.255.255.254 0.0.0.0 0.1.2.3 10.0.0.1 10.255.255.255 100.64.0.1 100.127.255.255
      169.254.169.254 172.16.0.1 172.31.255.255 192.168.1.1 192.0.0.8 192.0.2.1 198.18.0.1 198.19.255.255
      198.51.100.1 203.0.113.1 224.0.0.1 239.255.255.250 240.0.0.1 255.255.255.255
      ::1 [::1] :: [::] 0:0:0:0:0:0:0:1 0000:0000:0000:0000:0000:0000:0000:0001
      ::ffff:127.0.0.1 ::ffff:7f00:1 [::ffff:7f00:1] ::ffff:8.8.8.8 ::127.0.0.1
      64:ff9b::7f00:1 64:ff9b::10.0.0.1 64:ff9b::a9fe:a9fe 64:ff9b:1::a00:1 100::1
      fc00::1 fd12:3456::1 fe80::1 fe80::1%eth0 FEBF::1 fec0::1 ff02::1 2001::1 2001:db8::1 2002:7f00:1::1 3fff::1
    `);
    for (const ip of localOnes) assert.equal(isPublicAddress(ip), false, ip);
  });

  it('is false for anything that is not an IP address as written by a parser', () => {
    const notAddresses = words(`
      localhost example.com 1.2.3 1.2.3.4.5 256.1.1.1 01.2.3.4 0x7f.0.0.1 1::2::3 1:2:3:4:5:6:7:8:9
      1:2:3:4:5:6:7::8 ::: :1:: 12345:: g::1 ::ffff:1.2.3 [8.8.8.8] [2606:4700::1111
    `);
    for (const text of ['', ...notAddresses]) assert.equal(isPublicAddress(text), false, JSON.stringify(text));
  });

  it('classifies a URL’s host after the WHATWG parser has normalized it: every spelling of this machine is local', () => {
    const scope = (url: string) => hostScope(new URL(url).hostname);
    const localUrls = words(`
      http://127.0.0.1/ http://2130706433/ http://0x7f000001/ http://0x7f.1/ http://127.1/ http://0177.0.0.1/
      http://127.0.0.1./ http://0/ http://0.0.0.0/ http://[::]/ http://[::1]/ http://[0::1]/
      http://[::ffff:127.0.0.1]/ http://[0:0:0:0:0:ffff:7f00:1]/ http://[::ffff:10.0.0.1]/
      https://10.0.0.1/ https://169.254.169.254/ https://[fe80::1]/ https://[fd00::1]/
      http://localhost/ http://LOCALHOST./ http://a.b.localhost/ http://localhost.localdomain/
      http://printer.local/ http://router.home.arpa/ http://db.internal/ http://intranet/
    `);
    for (const url of localUrls) assert.equal(scope(url), 'local', url);
    assert.equal(scope('https://8.8.8.8/'), 'public');
    assert.equal(scope('https://[2606:4700::1111]/'), 'public');
    assert.equal(scope('https://docs.acme.test/'), 'name', 'a name is only known once it is resolved');
    assert.equal(scope('https://example.com./'), 'name');
  });

  it('agrees with Node’s BlockList on thousands of addresses around every range', () => {
    // The same ranges as BlockList subnets: a second matcher to check the parser and the bit
    // arithmetic against (the ranges themselves are what the tables above pin down).
    const blockList = (type: 'ipv4' | 'ipv6', cidrs: string) => {
      const list = new BlockList();
      for (const cidr of words(cidrs)) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), type);
      return (ip: string) => list.check(ip.replace(/^\[(.*)\]$/, '$1'), type);
    };
    const localV4 = blockList(
      'ipv4',
      `0.0.0.0/8 10.0.0.0/8 100.64.0.0/10 127.0.0.0/8 169.254.0.0/16 172.16.0.0/12 192.0.0.0/24 192.0.2.0/24
       192.88.99.0/24 192.168.0.0/16 198.18.0.0/15 198.51.100.0/24 203.0.113.0/24 224.0.0.0/3`,
    );
    const globalV6 = blockList('ipv6', '2000::/3');
    const localInGlobalV6 = blockList('ipv6', '2001::/23 2001:db8::/32 2002::/16 3fff::/20');
    let seed = 27;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const near = [0, 10, 100, 127, 169, 172, 192, 198, 203, 223, 224, 255];
    for (let i = 0; i < 4000; i++) {
      const first = i % 2 ? near[rand(near.length)]! : rand(256);
      const ip = [first, rand(256), rand(256), rand(256)].join('.');
      assert.equal(isPublicAddress(ip), !localV4(ip), ip);
      // The URL parser's IPv4-mapped IPv6 spelling of any IPv4 address is never public.
      assert.equal(isPublicAddress(new URL(`http://[::ffff:${ip}]/`).hostname), false, ip);
    }
    const heads = [0x2000, 0x2001, 0x2002, 0x2606, 0x3fff, 0x4000, 0xfc00, 0xfe80, 0xff00, 0x1fff, 0];
    for (let i = 0; i < 4000; i++) {
      const groups = Array.from({ length: 8 }, () => (rand(3) === 0 ? 0 : rand(0x10000)));
      groups[0] = heads[rand(heads.length)]!;
      if (i % 3 === 0) groups[1] = rand(0x300);
      const ip = new URL(`http://[${groups.map((g) => g.toString(16)).join(':')}]/`).hostname;
      assert.equal(isPublicAddress(ip), globalV6(ip) && !localInGlobalV6(ip), ip);
    }
  });
});
