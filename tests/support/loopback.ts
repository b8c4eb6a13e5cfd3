import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** How a test's server answers a request. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A small real HTTP server on 127.0.0.1 for the tests of the current file (or describe), to
 * answer as a broken backend might: `serve(handler)` starts it and answers its base URL;
 * `stop()` closes it, its open connections cut (after each test, or sooner to play a backend
 * that went away).
 */
export function useLoopbackServer(): {
  serve(handler: Handler): Promise<string>;
  stop(): Promise<void>;
} {
  let server: Server | undefined;
  const stop = async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  };
  afterEach(stop);
  return {
    stop,
    async serve(handler) {
      const started = createServer(handler);
      server = started;
      await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
    },
  };
}
