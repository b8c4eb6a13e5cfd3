import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/http-server.js';
import { serveSite } from '../../scripts/site-server.js';

// The local site server (`npm start`) sends what the README asks of any host that can set
// headers: /login and /manage may not be framed by anyone; /go may.

describe.each(['/', '/card/'])('the site server with base path %s', (basePath) => {
  let dir: string;
  let server: RunningServer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'namecard-frames-'));
    for (const route of ['', 'login', 'manage', 'go']) {
      await mkdir(path.join(dir, route), { recursive: true });
      await writeFile(path.join(dir, route, 'index.html'), `<!doctype html><p>${route}</p>`);
    }
    server = await serveSite(dir, { basePath });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  // Joined as text: `new URL('//login/', …)` would read a doubled slash as another host.
  const get = (route: string) => fetch(`${new URL(server.url).origin}${basePath}${route}`);

  // However the path is spelled: doubled slashes, percent escapes and dot segments name the
  // same page to the file server (and a browser may be served it), so they get the headers too.
  it.each([
    'login/',
    'manage/',
    'manage/index.html',
    'login/?next=1',
    '/login/',
    '/manage/',
    '%6danage/',
    '%6C%6Fgin/',
    './manage/',
    'go/../manage/',
    'manage//index.html',
  ])('%s: Content-Security-Policy frame-ancestors none and X-Frame-Options DENY', async (route) => {
    const res = await get(route);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each(['go/', ''])('%s: no anti-framing header', async (route) => {
    const res = await get(route);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});
