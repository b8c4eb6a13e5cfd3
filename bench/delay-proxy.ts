// A TCP proxy on 127.0.0.1 that makes a loopback server look `rttMs` away: every chunk is
// passed on half a round trip later, in order, and a new connection's first bytes leave no
// sooner than one round trip after it opened (the TCP handshake a real link costs). Unlike
// DevTools' emulation, it delays CORS preflights and connection set-up too, so a preflight
// and a preconnect show what they cost and gain on a real link. No throughput limit.
// Own code: the proxies on npm are HTTP proxies that parse requests; this must stay a
// plain byte pipe so the browser's connections reach the server unchanged.
import net from 'node:net';
import { track } from './cleanup.js';

export interface DelayProxy {
  /** `origin` with its host and port replaced by the proxy's. */
  url: string;
  stop(): Promise<void>;
}

/** Relays `from` to `to`, each chunk `oneWayMs` later, none before `notBefore` + `oneWayMs`. */
function relay(from: net.Socket, to: net.Socket, oneWayMs: number, notBefore: number): void {
  let last = 0;
  let pending = 0;
  let ended = false;
  const finish = () => {
    if (ended && pending === 0 && !to.destroyed) to.end();
  };
  from.on('data', (chunk) => {
    const now = performance.now();
    const at = Math.max(now + oneWayMs, notBefore + oneWayMs, last);
    last = at;
    pending++;
    setTimeout(() => {
      pending--;
      if (!to.destroyed) to.write(chunk);
      finish();
    }, at - now);
  });
  from.on('end', () => {
    ended = true;
    finish();
  });
}

/**
 * Starts a proxy to the server of `origin` (an http URL on 127.0.0.1) that adds `rttMs` to
 * every round trip; it is stopped by bench/cleanup.ts at the end, or by `stop()`.
 */
export async function startDelayProxy(origin: string, rttMs: number): Promise<DelayProxy> {
  const target = new URL(origin);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const opened = performance.now();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    // The browser's connect() returns at once on loopback; on a real link its first bytes
    // leave one round trip later (SYN, SYN-ACK).
    // Small writes go at once (no Nagle), or they would wait for the delayed ACKs.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    relay(client, upstream, rttMs / 2, opened + rttMs);
    relay(upstream, client, rttMs / 2, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(origin);
  url.port = String(port);
  const stop = track(`delay proxy :${port} → ${target.host}`, async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: url.href.replace(/\/$/, origin.endsWith('/') ? '/' : ''), stop };
}
