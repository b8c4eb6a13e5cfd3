// Debian's Chromium, headless, driven by playwright-core. The benchmark never downloads a
// browser: it uses /usr/bin/chromium (`apt-get install -y chromium`) or BENCH_CHROMIUM.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { track } from './cleanup.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches headless Chromium; it is closed by bench/cleanup.ts at the end.
 * @throws when no Chromium is installed, saying how to install it.
 */
export async function launchChromium(env: NodeJS.ProcessEnv = process.env): Promise<Browser> {
  const executablePath = env.BENCH_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium`);
  }
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    // Playwright's own Ctrl+C handler exits the process once the browser is closed, which
    // would cut bench/cleanup.ts short; that closes the browser in its turn instead.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  track('Chromium', () => browser.close());
  return browser;
}
