/**
 * True for a host name that is this machine: `localhost` (and `*.localhost`), the IPv4
 * loopback range 127.0.0.0/8 and IPv6 `::1`, which never leave it.
 *
 * @param hostname a URL's hostname (IPv6 in brackets, as URL gives it)
 * @example isLoopbackHost(new URL('http://127.0.0.1:54321').hostname) // → true
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '::1' ||
    host === '0:0:0:0:0:0:0:1'
  );
}
