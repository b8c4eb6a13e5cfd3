// The one set-up the browser and security test files share (as useCliFixture is for the CLI
// tests): the API, the demo card pages, the built site, Chromium, and a fresh page per test.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { RunningServer } from '../../scripts/http-server.js';
import { startTestEmulator, type DbKind } from '../support/emulator.js';
import {
  buildAndServeSite,
  closedPortUrl,
  launchBrowser,
  startCards,
  startFakeBackend,
  startSilentBackend,
  type FakeBackend,
  type ServedSite,
  type Visit,
} from './harness.js';
import { OWNER } from '../support/accounts.js';

/** The API the site is built against. */
export type E2eApi =
  /** The emulator over this database, with {@link OWNER} as the card's owner. */
  | DbKind
  /** {@link startFakeBackend}: answers what the test sets in `backend.answer`. */
  | 'fake'
  /** {@link startSilentBackend}: accepts connections and never answers. */
  | 'silent'
  /** A loopback port nothing listens on: the API is down. */
  | 'down';

export interface E2eOptions {
  /** The API (default `'pglite'`). Only a database kind gives the test `emulator`. */
  api?: E2eApi;
  /** More emulator options (e.g. `log`); `owner` defaults to {@link OWNER}. */
  emulator?: Parameters<typeof startTestEmulator>[1];
  /** Start the demo card pages and send visitors there (NAMECARD_MAIN_URL); default true. */
  cards?: boolean;
  /** More build settings, e.g. NAMECARD_BASE_PATH; they win over the fixture's own. */
  siteEnv?: Record<string, string | undefined>;
  /** How the static server serves the site, e.g. `{ antiFraming: false }` (a host with no headers). */
  siteServer?: Parameters<typeof buildAndServeSite>[1];
  /** Options of each test's browser context, e.g. `{ timezoneId: 'Asia/Tokyo' }`. */
  context?: BrowserContextOptions;
  /** Runs on each test's new context before its page opens (bindings, init scripts). */
  setUpContext?: (context: BrowserContext) => Promise<void> | void;
  /** Empty `public.namecard` before each test (needs the emulator). */
  clearRows?: boolean;
}

/** What {@link useE2eFixture} set up; read its fields inside hooks and tests only. */
export interface E2eFixture {
  /** The emulator (with `api` a database kind). */
  readonly emulator: RunningEmulator;
  /** The fake API (with `api: 'fake'`). */
  readonly backend: FakeBackend;
  /** The API's URL, whatever `api` is. */
  readonly apiUrl: string;
  /** The demo card pages: `/` "Main profile", `/photo` "Photo profile"; `visits` records requests. */
  readonly cards: RunningServer & { visits: Visit[] };
  /** The built site, served like a static host. */
  readonly site: ServedSite;
  readonly browser: Browser;
  /** This test's browser context, closed after it. */
  readonly context: BrowserContext;
  /** This test's page. */
  readonly page: Page;
}

/**
 * Registers the hooks of a browser test's world in the current `describe` (or file) and
 * returns it; the fields fill in as the hooks run.
 *
 * Once per describe (`beforeAll`; stopped in `afterAll`, in reverse order): the API (`api`),
 * the demo card pages (`cards`), the site built against both (`siteEnv` adds settings,
 * `siteServer` says how it is served) and Chromium. Before each test: the rows emptied (`clearRows`), a new browser context
 * (`context`, then `setUpContext`) and its page; after each test the context is closed.
 *
 * Hooks the file registers after this call run after the fixture's `beforeAll`/`beforeEach`
 * (the page is open) and before its `afterEach`/`afterAll` (vitest's default hook order,
 * `sequence.hooks: 'stack'`). So a describe adds its own set-up below the call:
 *
 * ```ts
 * describe('the owner sets the card', () => {
 *   const e2e = useE2eFixture({ context: { timezoneId: 'Asia/Tokyo' } });
 *   beforeEach(() => signIn(e2e.page, e2e.site, OWNER));
 *
 *   test('…', async () => {
 *     const { page, emulator } = e2e;
 *     // …
 *   });
 * });
 * ```
 *
 * Reading a field before its hook ran (or one the options did not ask for) throws, naming it.
 */
export function useE2eFixture(options: E2eOptions = {}): E2eFixture {
  const { api = 'pglite', cards: withCards = true } = options;
  const parts: Partial<Record<keyof E2eFixture, unknown>> = {};
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    if (api === 'fake') {
      const backend = await startFakeBackend();
      stops.push(backend.stop);
      parts.backend = backend;
      parts.apiUrl = backend.url;
    } else if (api === 'silent') {
      const silent = await startSilentBackend();
      stops.push(silent.stop);
      parts.apiUrl = silent.url;
    } else if (api === 'down') {
      parts.apiUrl = await closedPortUrl();
    } else {
      const emulator = await startTestEmulator(api, { owner: OWNER, ...options.emulator });
      stops.push(emulator.stop);
      parts.emulator = emulator;
      parts.apiUrl = emulator.url;
    }
    let mainUrl: string | undefined;
    if (withCards) {
      const cards = await startCards();
      stops.push(cards.stop);
      parts.cards = cards;
      mainUrl = cards.url;
    }
    const site = await buildAndServeSite(
      {
        SUPABASE_URL: parts.apiUrl as string,
        SUPABASE_ANON_KEY: (parts.emulator as RunningEmulator | undefined)?.anonKey,
        NAMECARD_MAIN_URL: mainUrl,
        ...options.siteEnv,
      },
      options.siteServer,
    );
    stops.push(site.stop);
    parts.site = site;
    const browser = await launchBrowser();
    stops.push(() => browser.close());
    parts.browser = browser;
  });
  afterAll(async () => {
    // Everything that started, newest first, even when a later step failed.
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  beforeEach(async () => {
    if (options.clearRows) {
      await (fixture.emulator as RunningEmulator).query('delete from public.namecard');
    }
    const context = await fixture.browser.newContext(options.context);
    parts.context = context;
    await options.setUpContext?.(context);
    parts.page = await context.newPage();
  });
  afterEach(async () => {
    const context = parts.context as BrowserContext | undefined;
    parts.context = undefined;
    parts.page = undefined;
    await context?.close();
  });

  const field = (name: keyof E2eFixture) => {
    const value = parts[name];
    if (value === undefined) {
      throw new Error(
        `useE2eFixture: \`${name}\` is not set up here (read it inside a hook or test; ` +
          `\`emulator\` needs a database api, \`backend\` api 'fake', \`cards\` cards: true)`,
      );
    }
    return value;
  };
  const fixture = Object.defineProperties(
    {},
    Object.fromEntries(
      (
        ['emulator', 'backend', 'apiUrl', 'cards', 'site', 'browser', 'context', 'page'] as const
      ).map((name) => [name, { get: () => field(name), enumerable: true }]),
    ),
  ) as E2eFixture;
  return fixture;
}
