// What the browser tests start: Debian's chromium, the built site on a plain static file
// server, the demo card pages, and backends that are down or never answer. Every helper
// returns something with `stop()`; each test file stops what it started.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoCards } from '../../scripts/demo-card/server.js';
import type { RunningServer } from '../../scripts/http-server.js';
import { buildSite } from '../../scripts/site-build.js';
import { serveSite } from '../../scripts/site-server.js';

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** The owner the emulator is started with. */
export const OWNER = { email: 'owner@e2e.test', password: 'e2e-owner-password-1' };

/** Debian's chromium, headless, with nothing that calls home. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.NAMECARD_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A built site served like a static host, plus the folder it was built into. */
export interface ServedSite extends RunningServer {
  dir: string;
  /** The URL of a path under the site's base path, e.g. `route('login/')`. */
  route(path: string): string;
}

/**
 * Builds the site into a fresh temporary folder with these settings and serves it with the
 * plain static server `npm start` uses (files only, 404.html for the rest).
 */
export async function buildAndServeSite(
  env: Record<string, string | undefined>,
): Promise<ServedSite> {
  const dir = await mkdtemp(join(tmpdir(), 'namecard-site-'));
  try {
    await buildSite(env, dir);
    const basePath = env.NAMECARD_BASE_PATH ?? '/';
    const server = await serveSite(dir, { basePath });
    return {
      ...server,
      dir,
      route: (path) => new URL(`${basePath}${path}`, server.url).href,
      async stop() {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A request that reached the demo card pages: its path and when it arrived (epoch ms). */
export interface Visit {
  path: string;
  at: number;
}

/**
 * The demo card pages on a free port: `/` says "Main profile", `/photo` "Photo profile".
 * `visits` records every request as it arrives, in this machine's clock.
 */
export async function startCards(): Promise<RunningServer & { visits: Visit[] }> {
  const visits: Visit[] = [];
  const server = await startDemoCards({
    port: 0,
    onRequest: (path) => visits.push({ path, at: performance.timeOrigin + performance.now() }),
  });
  return { ...server, visits };
}

/** A backend that accepts connections and never answers a byte. */
export async function startSilentBackend(): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The URL of a loopback port that nothing listens on (a backend that is down). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Saves a full-page screenshot under tests/e2e/screenshots/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Signs in through the login form (the Auth UI) and waits for /manage. */
export async function signIn(
  page: Page,
  site: ServedSite,
  user: { email: string; password: string },
): Promise<void> {
  await page.goto(site.route('login/'));
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Your Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(site.route('manage/'));
}
