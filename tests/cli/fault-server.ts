import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

// A small real HTTP server on 127.0.0.1 that answers the way a broken backend or gateway does
// (502/503/504, HTML, truncated JSON, silence), or passes the request on to a real emulator.
// A fake backend only because a real one cannot produce these faults on demand.

export interface Received {
  method: string;
  /** Path and query, e.g. `/rest/v1/namecard?select=…`. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** What the handler can do with a request. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** 1 for the first request to this method and path (without query), 2 for the second, … */
  nth: number;
  /** Sends the request on to the upstream and returns its answer, without answering yet. */
  forward(): Promise<{ status: number; headers: Record<string, string>; body: string }>;
  /** Forwards and answers with the upstream's answer as it is. */
  proxy(): Promise<void>;
}

export interface FaultServer {
  url: string;
  received: Received[];
  /** How many requests had this method and a path starting with `prefix`. */
  count(method: string, prefix: string): number;
  stop(): Promise<void>;
}

/** Answers with a status and a body, as a gateway would. */
export function answer(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/html',
): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** An HTML error page of the kind nginx or a CDN sends. */
export const gatewayPage = (status: number) =>
  `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts a fault server. `handle` decides each answer; `upstream` (a running emulator's URL)
 * is what `forward` and `proxy` talk to.
 */
export async function startFaultServer(
  handle: (exchange: Exchange) => void | Promise<void>,
  upstream?: string,
): Promise<FaultServer> {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    received.push({ method, path, headers: req.headers });
    const key = `${method} ${path.split('?')[0]}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const bodyPromise = readBody(req);

    const forward: Exchange['forward'] = async () => {
      if (!upstream) throw new Error('no upstream to forward to');
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
          headers.set(name, value);
        }
      }
      const body = await bodyPromise;
      const response = await fetch(`${upstream}${path}`, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      });
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding'].includes(name)) {
          out[name] = value;
        }
      });
      return { status: response.status, headers: out, body: await response.text() };
    };
    const proxy = async () => {
      const upstreamAnswer = await forward();
      res.writeHead(upstreamAnswer.status, upstreamAnswer.headers);
      res.end(upstreamAnswer.body);
    };

    Promise.resolve(handle({ req, res, nth, forward, proxy })).catch((error: unknown) => {
      if (!res.headersSent) answer(res, 500, String(error), 'text/plain');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    count: (method, prefix) =>
      received.filter((r) => r.method === method && r.path.startsWith(prefix)).length,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
