import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, TimeoutError } from '../../shared/core/errors.js';
import { fetchActiveEntry, fetchStatus } from '../../shared/core/lookup.js';
import { useLoopbackServer } from '../support/loopback.js';

// The lookup against small real HTTP servers that answer the way a broken backend might.
const NOW = 1_900_000_000_000;
const { serve, stop } = useLoopbackServer();

describe('fetchActiveEntry', () => {
  it("sends one GET of the card's lookup with the slug and the apikey in the query and no custom header", async () => {
    const seen: IncomingMessage[] = [];
    const url = await serve((req, res) => {
      seen.push(req);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify([{ id: 4, stamp_end: NOW + 60_000, stamp_start: null, type: 'photo' }]),
      );
    });
    const row = await fetchActiveEntry({
      supabaseUrl: url,
      card: 'main',
      anonKey: 'anon.key',
      accessToken: null,
    });
    expect(row).toEqual({ id: 4, stamp_end: NOW + 60_000, stamp_start: null, type: 'photo' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(
      '/rest/v1/rpc/namecard_go?card=main&select=id,type,stamp_start,stamp_end,url&apikey=anon.key',
    );
    // A CORS-simple request: none of the headers that would make a browser send a preflight.
    expect(seen[0]!.headers.apikey).toBeUndefined();
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['accept-profile']).toBeUndefined();
  });

  it("sends a signed-in owner's access token as the bearer", async () => {
    let auth: string | undefined;
    const url = await serve((req, res) => {
      auth = req.headers.authorization;
      res.end('[]');
    });
    expect(
      await fetchActiveEntry({
        supabaseUrl: url,
        card: 'main',
        anonKey: 'anon',
        accessToken: 'tok',
      }),
    ).toBeNull();
    expect(auth).toBe('Bearer tok');
  });

  it("reads the card's status (now, active entry, timeline) with one GET of namecard_status", async () => {
    const seen: string[] = [];
    const status = {
      now: NOW,
      active: null,
      timeline: [
        { type: 'main', from: NOW, to: NOW + 1 },
        { type: 'photo', from: NOW + 1, to: NOW + 2 },
        { type: 'main', from: NOW + 2, to: null },
      ],
    };
    const url = await serve((req, res) => {
      seen.push(req.url ?? '');
      res.end(JSON.stringify([status]));
    });
    // A status without labels, url or series reads as none of each.
    expect(await fetchStatus({ supabaseUrl: url, card: 'main', anonKey: 'anon' })).toEqual({
      ...status,
      labels: {},
      url: null,
      series: [],
    });
    expect(seen).toEqual([
      '/rest/v1/rpc/namecard_status?card=main&select=now,active,timeline,labels,url,series_ahead&apikey=anon',
    ]);
  });

  it("reads the profiles' labels and the destination in force with the status", async () => {
    const status = {
      now: NOW,
      active: { id: 3, type: 'shop', stamp_start: null, stamp_end: NOW + 1 },
      timeline: [
        { type: 'shop', from: NOW, to: NOW + 1 },
        { type: 'main', from: NOW + 1, to: null },
      ],
      labels: { main: 'Main Profile', shop: 'Shop' },
      url: 'https://me.example/shop',
    };
    const url = await serve((_req, res) => res.end(JSON.stringify([status])));
    expect(await fetchStatus({ supabaseUrl: url, card: 'main', anonKey: 'anon' })).toEqual({
      ...status,
      series: [],
    });
    for (const broken of [
      { labels: ['Shop'] },
      { labels: { shop: 1 } },
      { url: 7 },
      { series_ahead: {} },
      { series_ahead: [{ id: 4, type: 'shop', weekdays: [8], next: NOW }] },
    ]) {
      const bad = await serve((_req, res) => res.end(JSON.stringify([{ ...status, ...broken }])));
      await expect(
        fetchStatus({ supabaseUrl: bad, card: 'main', anonKey: 'anon' }),
      ).rejects.toMatchObject({
        code: 'invalid_response',
      });
    }
  });

  it('reads the series with an occurrence ahead, each with its next start', async () => {
    const series = {
      id: 4,
      type: 'photo',
      weekdays: [6],
      start_time: '10:00:00',
      end_time: '18:00:00',
      time_zone: 'Europe/Berlin',
      first_date: null,
      last_date: '2030-09-30',
      next: NOW + 5,
    };
    const url = await serve((_req, res) =>
      res.end(
        JSON.stringify([
          {
            now: NOW,
            active: null,
            timeline: [{ type: 'main', from: NOW, to: null }],
            series_ahead: [series],
          },
        ]),
      ),
    );
    expect((await fetchStatus({ supabaseUrl: url, card: 'main', anonKey: 'anon' })).series).toEqual(
      [series],
    );
  });

  it.each([
    ['no row', []],
    ['no timeline', [{ now: NOW, active: null, timeline: [] }]],
    [
      'a segment without a start',
      [{ now: NOW, active: null, timeline: [{ type: 'main', to: null }] }],
    ],
    [
      'a malformed active entry',
      [{ now: NOW, active: { id: 'x' }, timeline: [{ type: 'main', from: NOW, to: null }] }],
    ],
  ])('refuses a status answer with %s as invalid_response', async (_what, body) => {
    const url = await serve((_req, res) => res.end(JSON.stringify(body)));
    await expect(
      fetchStatus({ supabaseUrl: url, card: 'main', anonKey: 'anon' }),
    ).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it.each([
    [
      'two rows',
      [
        { id: 1, stamp_end: NOW, type: 'main' },
        { id: 2, stamp_end: NOW, type: 'main' },
      ],
    ],
    ['a row without an id', [{ stamp_end: NOW + 1, type: 'photo' }]],
    ['a row with a text stamp_end', [{ id: 1, stamp_end: 'soon', type: 'photo' }]],
  ])('refuses an answer with %s as invalid_response', async (_name, body) => {
    const url = await serve((_req, res) => res.end(JSON.stringify(body)));
    await expect(
      fetchActiveEntry({ supabaseUrl: url, card: 'main', anonKey: 'anon' }),
    ).rejects.toMatchObject({
      code: 'invalid_response',
    });
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
    const error = await fetchActiveEntry({ supabaseUrl: url, card: 'main', anonKey: 'anon' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'PGRST205' });
  });

  it('reports a body that is not a list of rows as invalid_response', async () => {
    const url = await serve((_req, res) => res.end('<html>502 Bad Gateway</html>'));
    await expect(
      fetchActiveEntry({ supabaseUrl: url, card: 'main', anonKey: 'anon' }),
    ).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('reports an unreachable backend as "Cannot reach <url>"', async () => {
    const url = await serve(() => undefined);
    await stop();
    const error = await fetchActiveEntry({ supabaseUrl: url, card: 'main', anonKey: 'anon' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(`Cannot reach ${url}`);
  });

  it('gives up after its time-out when the backend never answers', async () => {
    const url = await serve(() => undefined);
    const error = await fetchActiveEntry({
      supabaseUrl: url,
      card: 'main',
      anonKey: 'anon',
      timeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });
});
