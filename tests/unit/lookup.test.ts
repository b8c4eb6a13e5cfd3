import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, TimeoutError } from '../../shared/core/errors.js';
import { fetchActiveEntry } from '../../shared/core/lookup.js';

// The lookup against small real HTTP servers that answer the way a broken backend might.
const NOW = 1_900_000_000_000;
let server: Server | undefined;

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('fetchActiveEntry', () => {
  it('sends one GET with the filter, order and limit, the apikey and the bearer', async () => {
    const seen: IncomingMessage[] = [];
    const url = await serve((req, res) => {
      seen.push(req);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify([{ id: 4, stamp_end: NOW + 60_000, type: 'photo' }]));
    });
    const row = await fetchActiveEntry({
      supabaseUrl: url,
      anonKey: 'anon',
      accessToken: 'tok',
      now: NOW,
    });
    expect(row).toEqual({ id: 4, stamp_end: NOW + 60_000, type: 'photo' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(
      `/rest/v1/namecard?select=id,stamp_end,type&stamp_end=gt.${NOW}&order=id.desc&limit=1`,
    );
    expect(seen[0]!.headers.apikey).toBe('anon');
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
  });

  it('uses the anon key as the bearer when there is no session', async () => {
    let auth: string | undefined;
    const url = await serve((req, res) => {
      auth = req.headers.authorization;
      res.end('[]');
    });
    expect(await fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon', now: NOW })).toBeNull();
    expect(auth).toBe('Bearer anon');
  });

  it('never returns a row the server sent that is not active', async () => {
    const url = await serve((_req, res) =>
      res.end(JSON.stringify([{ id: 4, stamp_end: NOW - 1, type: 'photo' }])),
    );
    expect(await fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon', now: NOW })).toBeNull();
  });

  it('reports a server error with its code and message', async () => {
    const url = await serve((_req, res) => {
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          code: 'PGRST205',
          message: "Could not find the table 'public.namecard' in the schema cache",
          details: null,
          hint: null,
        }),
      );
    });
    const error = await fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon', now: NOW }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'PGRST205' });
  });

  it('reports a body that is not a list of rows as invalid_response', async () => {
    const url = await serve((_req, res) => res.end('<html>502 Bad Gateway</html>'));
    await expect(
      fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon', now: NOW }),
    ).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('reports an unreachable backend as "Cannot reach <url>"', async () => {
    const url = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const error = await fetchActiveEntry({ supabaseUrl: url, anonKey: 'anon', now: NOW }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(`Cannot reach ${url}`);
  });

  it('gives up after its time-out when the backend never answers', async () => {
    const url = await serve(() => undefined);
    const error = await fetchActiveEntry({
      supabaseUrl: url,
      anonKey: 'anon',
      now: NOW,
      timeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });
});
