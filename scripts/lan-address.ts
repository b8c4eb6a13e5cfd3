import { networkInterfaces } from 'node:os';

/** The address that listens on every IPv4 interface. */
export const EVERY_INTERFACE = '0.0.0.0';

/**
 * The address other devices (a phone on the same Wi-Fi) reach this machine at when
 * `npm start` listens on `host`: for `0.0.0.0`, the first IPv4 address of a network interface
 * that is not loopback; for any other address, that address.
 *
 * @param host the IPv4 address listened on, e.g. `0.0.0.0` or `192.168.1.20`
 * @param interfaces the machine's interfaces (Node's `os.networkInterfaces()` by default)
 * @returns the address, or undefined when `host` is `0.0.0.0` and no such interface is up
 * @example reachableAddress('0.0.0.0') // → '192.168.1.20' on a machine on a home LAN
 */
export function reachableAddress(
  host: string,
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string | undefined {
  if (host !== EVERY_INTERFACE) return host;
  return Object.values(interfaces)
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
}

/** True for an address on this machine only (127.0.0.0/8), which no phone can reach. */
export function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address);
}
