import { describe, expect, it } from 'vitest';
import { AddressPolicy, addressKind } from './address-policy';

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
  ])('%s is %s', (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });
});

describe('AddressPolicy', () => {
  it('refuses every non-public address by default', () => {
    const policy = new AddressPolicy({ allowPrivate: false, allowHosts: [] });
    expect(policy.refusal('example.com', '93.184.216.34')).toBeUndefined();
    expect(policy.refusal('localhost', '127.0.0.1')).toBe('loopback');
  });

  it('allows listed names, addresses and ranges, and private ones when told; metadata only when listed', () => {
    const policy = new AddressPolicy({ allowPrivate: false, allowHosts: ['localhost', '10.0.0.0/8', '::1'] });
    expect(policy.refusal('localhost', '127.0.0.1')).toBeUndefined();
    expect(policy.refusal('localhost.', '::1')).toBeUndefined();
    expect(policy.refusal('db', '10.9.9.9')).toBeUndefined();
    expect(policy.refusal('[::1]', '::1')).toBeUndefined();
    expect(policy.refusal('other', '127.0.0.1')).toBe('loopback');
    const open = new AddressPolicy({ allowPrivate: true, allowHosts: [] });
    expect(open.refusal('x', '192.168.1.1')).toBeUndefined();
    expect(open.refusal('x', '169.254.169.254')).toBe('metadata');
    expect(open.refusal('x', 'fd00:ec2::254')).toBe('metadata');
  });
});
