import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../../scripts/http-server.js';
import { screenshot, signIn } from './harness.js';
import { useE2eFixture } from './fixture.js';
import { OWNER } from '../support/accounts.js';

// Clickjacking: an owner signed in on the site opens a page of another origin (here another
// port of the same host, so the frame even shares the owner's stored session) that frames
// /manage. Served by a plain static file server with no headers at all, as on GitHub Pages,
// the framed page must show nothing that acts, only a way to open it in its own window.
// Framing does not depend on the database: PGlite only.

describe('/login and /manage inside another origin’s frame', () => {
  const e2e = useE2eFixture({ siteServer: { antiFraming: false } });
  let framer: RunningServer;

  beforeAll(async () => {
    // The other origin: a page whose only content is a frame of the route in `?route=`.
    framer = await listen((req, res) => {
      const route = new URL(req.url ?? '/', 'http://x').searchParams.get('route') ?? 'manage/';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Win a prize</title><h1>Click the button!</h1>` +
          `<iframe src="${e2e.site.route(route)}" width="900" height="1000"></iframe>`,
      );
    });
  });
  afterAll(async () => {
    await framer?.stop();
  });

  test('the static server really sends no anti-framing header', async () => {
    const res = await fetch(e2e.site.route('manage/'));
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  test('a signed-in owner sees "Set the card!" in /manage’s own window, and no usable one in a frame of another origin', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    await expect
      .poll(() => page.getByRole('button', { name: 'Set the card!' }).isEnabled(), {
        timeout: 30_000,
      })
      .toBe(true);

    await page.goto(`${framer.url}?route=manage/`);
    const frame = page.frameLocator('iframe');
    const notice = frame.getByRole('heading', { name: 'Open this page in its own window' });
    await notice.waitFor({ timeout: 30_000 });
    const link = frame.getByRole('link', { name: 'Open it in its own window' });
    expect(await link.getAttribute('href')).toBe(site.route('manage/'));
    expect(await link.getAttribute('target')).toBe('_blank');
    // Nothing that acts was rendered: no form, no buttons at all (Set the card!, End now,
    // Logout), and no signed-in details.
    expect(await frame.getByRole('button').count()).toBe(0);
    expect(await frame.locator('form, input, select, textarea').count()).toBe(0);
    expect(await frame.getByText(OWNER.email).count()).toBe(0);
    await screenshot(page, 'framing-manage');
  });

  test('/login in a frame of another origin shows no sign-in form', async () => {
    const { page } = e2e;
    await page.goto(`${framer.url}?route=login/`);
    const frame = page.frameLocator('iframe');
    await frame
      .getByRole('heading', { name: 'Open this page in its own window' })
      .waitFor({ timeout: 30_000 });
    expect(await frame.getByRole('button').count()).toBe(0);
    expect(await frame.locator('form, input').count()).toBe(0);
  });

  test('the link opens /manage in its own window, where it works', async () => {
    const { page, site, context } = e2e;
    await signIn(page, site, OWNER);
    await page.goto(`${framer.url}?route=manage/`);
    const frame = page.frameLocator('iframe');
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      frame.getByRole('link', { name: 'Open it in its own window' }).click(),
    ]);
    await opened.waitForURL(site.route('manage/'));
    await expect
      .poll(() => opened.getByRole('button', { name: 'Set the card!' }).isEnabled(), {
        timeout: 30_000,
      })
      .toBe(true);
    await opened.close();
  });
});
