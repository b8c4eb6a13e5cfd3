import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running local HTTP server. */
export interface RunningServer {
  /** Origin with a trailing slash, e.g. `http://127.0.0.1:4173/`. */
  url: string;
  port: number;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

/**
 * Listens on `host:port` (port 0 picks a free one).
 *
 * @throws the listen error, e.g. EADDRINUSE when the port is taken
 */
export async function listen(
  handler: RequestListener,
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<RunningServer> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}/`,
    port: actual,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
