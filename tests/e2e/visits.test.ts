import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { run, tempConfigDir, removeDir } from '../cli/helpers.js';
import { useE2eFixture } from './fixture.js';
import { REDIRECT_DELAY_MS, LOOKUP_TIMEOUT_MS, screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';

// Visit counts through /go in Chromium: each visit through the plain link, the QR
// link (?via=qr) and the NFC link (?via=nfc) is counted once for its channel, as `namecard
// stats --json` shows; the owner's own visit is not counted; a visit leaves no cookie or
// storage entry and sends no OPTIONS request.

const COUNT_PATH = '/rest/v1/rpc/namecard_count_visit';
/** The channel each query's visit is counted for. */
const VIA: Record<string, string> = {
  '': 'link',
  '?via=qr': 'qr',
  '?via=nfc': 'nfc',
  '?via=somethingelse': 'link',
};
const apiLog: string[] = [];

describe('visits through /go', () => {
  const e2e = useE2eFixture({
    clearRows: true,
    emulator: { log: (line) => apiLog.push(line) },
  });

  beforeEach(async () => {
    await e2e.emulator.query('truncate public.namecard_visit');
    apiLog.length = 0;
  });

  /** Every count in the database, summed by channel. */
  const byVia = async () => {
    const rows = await e2e.emulator.query<{ via: string; n: number }>(
      'select via, sum(visits)::int as n from public.namecard_visit group by via',
    );
    return Object.fromEntries(rows.map((r) => [r.via, Number(r.n)]));
  };

  /** Polls until the counts are `expected` (beacons arrive on their own time), or fails. */
  async function countsReach(expected: Record<string, number>): Promise<void> {
    const deadline = Date.now() + 10_000;
    let seen = await byVia();
    while (JSON.stringify(sorted(seen)) !== JSON.stringify(sorted(expected))) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await byVia();
    }
    expect(sorted(seen)).toEqual(sorted(expected));
  }
  const sorted = (o: Record<string, number>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

  /** Opens /go with `query` and waits until it has landed on the card site. */
  async function visit(page: Page, query: string): Promise<Request[]> {
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await page.goto(e2e.site.route(`go/${query}`));
    await page.waitForURL((url) => url.href.startsWith(e2e.cards.url), {
      timeout: LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 5000,
    });
    page.removeAllListeners('request');
    return requests;
  }

  /** What this browser keeps for the site's origin: cookies, localStorage, sessionStorage. */
  async function stored(page: Page) {
    // A page of the site's origin that runs no script of the site (a 404), in the same tab.
    await page.goto(e2e.site.route('go/no-such-page.txt'));
    const [local, session] = (await page.evaluate(
      '[localStorage.length, sessionStorage.length]',
    )) as [number, number];
    return { cookies: await page.context().cookies(), local, session };
  }

  test('N visits through the plain, QR and NFC links count exactly so, in stats --json too', async () => {
    const { page, emulator } = e2e;
    const plan = [
      ['', 2],
      ['?via=qr', 3],
      ['?via=nfc', 1],
      ['?via=somethingelse', 1],
    ] as const;
    for (const [query, times] of plan) {
      for (let i = 0; i < times; i++) {
        const requests = await visit(page, query);
        const counts = requests.filter((r) => r.url().includes(COUNT_PATH));
        expect(counts).toHaveLength(1);
        expect(counts[0]!.method()).toBe('POST');
        expect(counts[0]!.url()).toBe(`${emulator.url}${COUNT_PATH}?apikey=${emulator.anonKey}`);
        // A form naming the channel and the card: a body a browser sends with no preflight.
        expect(await counts[0]!.headerValue('content-type')).toBe(
          'application/x-www-form-urlencoded;charset=UTF-8',
        );
        expect(counts[0]!.postData()).toBe(`via=${VIA[query]}&card=main`);
      }
    }
    await countsReach({ link: 3, qr: 3, nfc: 1 });
    // Nothing kept in the visitor's browser, and no preflight reached the API.
    expect(await stored(page)).toEqual({ cookies: [], local: 0, session: 0 });
    expect(apiLog.filter((line) => line.startsWith('OPTIONS'))).toEqual([]);
    expect(apiLog.filter((line) => line.startsWith(`POST ${COUNT_PATH} 204`))).toHaveLength(7);

    const dir = await tempConfigDir();
    try {
      const stats = await run(dir, ['stats', '--json', '--days', '1'], {
        env: {
          SUPABASE_URL: emulator.url,
          SUPABASE_ANON_KEY: emulator.anonKey,
          NAMECARD_EMAIL: OWNER.email,
          NAMECARD_PASSWORD: OWNER.password,
        },
      });
      expect(stats.stderr).toBe('');
      expect(stats.exitCode).toBe(0);
      expect(JSON.parse(stats.stdout)).toMatchObject({
        total: 7,
        by_type: { main: 7, photo: 0 },
        by_via: { qr: 3, nfc: 1, link: 3 },
      });
    } finally {
      await removeDir(dir);
    }

    // The owner sees the same counts on /manage: a chart with today marked, and the numbers.
    await signIn(page, e2e.site, OWNER);
    const section = page.getByTestId('visits');
    await expect(section.getByTestId('visits-total').innerText({ timeout: 10_000 })).resolves.toBe(
      '7',
    );
    const byVia = section.getByTestId('visits-by-via');
    await expect(byVia.locator('[data-via=qr]').innerText()).resolves.toBe('3');
    await expect(byVia.locator('[data-via=nfc]').innerText()).resolves.toBe('1');
    await expect(byVia.locator('[data-via=link]').innerText()).resolves.toBe('3');
    const chart = page.getByRole('img', { name: /Visits per day over the last 30 days/ });
    await expect(chart.locator('g[data-day]').count()).resolves.toBe(30);
    await expect(chart.locator('g[data-day]').last().getAttribute('data-total')).resolves.toBe('7');
    await expect(chart.getByTestId('visits-today').count()).resolves.toBe(1);
    await expect(chart.locator('g[data-day]').last().locator('rect.bar').count()).resolves.toBe(3);
    await screenshot(page, 'manage-visits');
  });

  test('/login and /go load no part of the Visits section', async () => {
    const { page } = e2e;
    const loaded: string[] = [];
    page.on('request', (r) => loaded.push(r.url()));
    await page.goto(e2e.site.route('login/'));
    await page.getByLabel('Email address').waitFor();
    await visit(page, '?via=qr');
    expect(loaded.length).toBeGreaterThan(2);
    expect(loaded.filter((url) => /Visits/i.test(url))).toEqual([]);
  });

  test('a page that runs no script (a link preview bot) is not counted', async () => {
    const { browser } = e2e;
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      // Its <noscript> refresh still takes it to the main site.
      await visit(await noScript.newPage(), '?via=qr');
    } finally {
      await noScript.close();
    }
    // A visit with script afterwards is the only one counted.
    await visit(e2e.page, '?via=nfc');
    await countsReach({ nfc: 1 });
  });

  test("the owner's own visit, signed in on this browser, is not counted", async () => {
    const { page, browser } = e2e;
    await signIn(page, e2e.site, OWNER);
    const requests = await visit(page, '?via=qr');
    // The count would leave right after the lookup, before the redirect: none left.
    expect(requests.filter((r) => r.url().includes(COUNT_PATH))).toEqual([]);
    // A visitor's visit afterwards is the only one counted.
    const visitor = await browser.newContext();
    try {
      await visit(await visitor.newPage(), '?via=nfc');
    } finally {
      await visitor.close();
    }
    await countsReach({ nfc: 1 });
  });
});
