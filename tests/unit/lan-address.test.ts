import type { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, reachableAddress } from '../../scripts/lan-address.js';

// Which address `npm start --host …` builds the site for and prints: the one a phone on the
// same network calls. For 0.0.0.0 that is the machine's LAN address, never 127.0.0.1.

type Interfaces = ReturnType<typeof networkInterfaces>;

const address = (ip: string, internal: boolean, family: 'IPv4' | 'IPv6' = 'IPv4') => ({
  address: ip,
  netmask: '255.255.255.0',
  family,
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${ip}/24`,
  ...(family === 'IPv6' ? { scopeid: 0 } : {}),
});

const laptop = {
  lo: [address('127.0.0.1', true), address('::1', true, 'IPv6')],
  wlan0: [address('fe80::1', false, 'IPv6'), address('192.168.1.20', false)],
} as Interfaces;

describe('reachableAddress', () => {
  it('for 0.0.0.0, is the first IPv4 address that is not loopback', () => {
    expect(reachableAddress('0.0.0.0', laptop)).toBe('192.168.1.20');
  });

  it('for 0.0.0.0 on a machine with loopback only, is undefined (npm start then says so)', () => {
    expect(reachableAddress('0.0.0.0', { lo: laptop.lo } as Interfaces)).toBeUndefined();
  });

  it('for a given address, is that address', () => {
    expect(reachableAddress('192.168.1.20', laptop)).toBe('192.168.1.20');
    expect(reachableAddress('127.0.0.1', laptop)).toBe('127.0.0.1');
  });

  it('tells loopback addresses, which no phone reaches, from the others', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('192.168.1.20')).toBe(false);
  });
});
