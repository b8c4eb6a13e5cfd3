import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { buildSite } from '../../scripts/site-build.js';
import { decodePng, renderSvg } from '../support/qr.js';
import { useE2eFixture } from './fixture.js';
import { screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';

// The card link and its QR code on /manage, in Chromium against the built site: the link the
// site was built with (NAMECARD_SITE_URL under NAMECARD_BASE_PATH), copied to the clipboard,
// and the QR code downloaded as PNG and SVG, read back by an independent decoder (jsQR).

const SITE_URL = 'https://cards.example';
const BASE_PATH = '/card/';
const LINK = 'https://cards.example/card/go/';
/** What the QR code encodes: the card link marked as scanned, so the visit counts as a QR visit. */
const QR_LINK = `${LINK}?via=qr`;

describe('the card link and its QR code on /manage', () => {
  const e2e = useE2eFixture({
    siteEnv: { NAMECARD_SITE_URL: SITE_URL, NAMECARD_BASE_PATH: BASE_PATH },
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  beforeEach(async () => {
    await signIn(e2e.page, e2e.site, OWNER);
  });

  test('shows the card link, and the copy button puts exactly it on the clipboard', async () => {
    const { page } = e2e;
    const link = page.getByTestId('card-link');
    await expect(link.innerText()).resolves.toBe(LINK);
    await expect(link.getAttribute('href')).resolves.toBe(LINK);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(LINK);
  });

  test('the QR code shown reads as the card link; desktop and 390 px screenshots', async () => {
    const { page } = e2e;
    const image = page.getByRole('img', { name: `QR code of ${LINK}` });
    await image.waitFor();
    // The code is drawn once its library has loaded: read the picture until it decodes.
    await expect
      .poll(async () => decodePng(await image.screenshot()), { timeout: 15_000 })
      .toBe(QR_LINK);
    // Large enough to scan from the screen: at least 240 CSS px.
    const shown = (await image.boundingBox())!;
    expect(shown.width).toBeGreaterThanOrEqual(240);
    expect(shown.height).toBeGreaterThanOrEqual(240);
    await screenshot(page, 'manage-card-link');
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await image.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'manage-card-link-390');
  });

  test('Download PNG saves namecard-qr.png, which decodes to exactly the card link with ?via=qr', async () => {
    const { page } = e2e;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PNG' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('namecard-qr.png');
    const png = await readFile(await download.path());
    expect(decodePng(png)).toBe(QR_LINK);
    // Big enough to print: at least 1024 px, square.
    const { width, height } = PNG.sync.read(png);
    expect(width).toBeGreaterThanOrEqual(1024);
    expect(height).toBe(width);
  });

  test('Download SVG saves namecard-qr.svg, valid SVG that draws the card link', async () => {
    const { browser, page } = e2e;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download SVG' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('namecard-qr.svg');
    const svg = await readFile(await download.path(), 'utf8');
    await expect(renderSvg(browser, svg)).resolves.toEqual({
      root: 'svg',
      namespace: 'http://www.w3.org/2000/svg',
      errors: 0,
      text: QR_LINK,
    });
  });
});

describe('NAMECARD_SITE_URL in the build', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** Builds the site with these settings; its files by path. */
  async function build(env: Record<string, string>): Promise<Map<string, string>> {
    const dir = await mkdtemp(join(tmpdir(), 'namecard-site-url-'));
    dirs.push(dir);
    // A hosted API needs its own key: the demo key is only for an API on this machine.
    await buildSite(
      {
        SUPABASE_URL: 'https://api.example',
        SUPABASE_ANON_KEY: 'sb_publishable_card_link',
        ...env,
      },
      dir,
    );
    const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
    const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
    return new Map(names.map((name, i) => [name, texts[i]!]));
  }

  // Besides /manage's card link part (its chunk, CardLink-*.js, loaded after /manage's first
  // draw), the build publishes where it is hosted in namecard.json (its public settings, for
  // `namecard doctor`); no other page or script holds it.
  test('/go is byte for byte the same with and without it, and only /manage holds the link', async () => {
    const site = 'https://site-url-canary.example/';
    const [without, withIt] = await Promise.all([build({}), build({ NAMECARD_SITE_URL: site })]);
    expect(withIt.get('go/index.html')).toBe(without.get('go/index.html'));
    const holding = [...withIt].filter(
      ([name, text]) => name !== 'namecard.json' && text.includes('site-url-canary'),
    );
    expect(holding.map(([name]) => name)).toEqual([
      expect.stringMatching(/^assets\/CardLink-.*\.js$/),
    ]);
    expect(JSON.parse(withIt.get('namecard.json')!)).toMatchObject({ siteUrl: site });
    // Embedded only as the public link it is.
    const [, manage] = holding[0]!;
    const uses = [...manage.matchAll(/site-url-canary\.example[^`"']*/g)].map((m) => m[0]);
    expect(uses).toEqual(['site-url-canary.example/go/']);
  });
});
