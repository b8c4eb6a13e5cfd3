// `npm run bench`: the visitor's lookup, its load, the page and the CLI (and the body and anon floods) on the emulator over a PostgreSQL server
// and over PGlite. Progress goes to stderr; the Markdown table goes to stdout; figures go to
// bench/results/. See bench/README.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser.js';
import { stopAll, stopOnSignals } from './cleanup.js';
import { buildCli, measureCli } from './cli.js';
import type { DbKind } from './emulator.js';
import { Fleet } from './fleet.js';
import { measureAnonFlood } from './anon-flood.js';
import { measureFlood } from './flood.js';
import { measureLoad } from './load.js';
import { measureCards } from './cards.js';
import { measureLookup } from './lookup.js';
import { describeMachine, finishMachine, settle } from './machine.js';
import {
  parseOptions,
  resultFiles,
  settingsFor,
  USAGE,
  UsageError,
  type BenchOptions,
} from './options.js';
import { measurePage } from './page.js';
import { pgServer } from './postgres.js';
import type { BenchResults } from './bench-results.js';
import { markdown, writeResults } from './report.js';
import { measureSite } from './site.js';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const log = (line: string) => console.error(`bench: ${line}`);
/** The longest wait for the machine to settle before a measurement and at the end, ms. */
const SETTLE_MS = 120_000;

async function serverVersion(fleet: Fleet): Promise<string> {
  const table = await fleet.table(1e3);
  const [row] = await table.emulator.query<{ v: string }>(
    `select current_setting('server_version') as v`,
  );
  return row?.v ?? '?';
}

async function runDb(db: DbKind, options: BenchOptions, results: BenchResults, browser?: Browser) {
  const settings = settingsFor(options.quick);
  const server = db === 'postgres' ? await pgServer() : undefined;
  if (server)
    log(`PostgreSQL: ${server.started ? 'started a throwaway server' : 'using the given server'}`);
  const fleet = new Fleet(db, server, log);
  /** Lets the machine settle before a measurement (not in a quick run), recording the load. */
  const quiet = async (section: string) => {
    const name = `${db} ${section}`;
    const load = await settle(results.machine, name, options.quick ? 0 : SETTLE_MS, log);
    (results.machine.loadAverage.sections ??= []).push({ name, load });
  };
  try {
    results.machine[db] = await serverVersion(fleet);
    if (options.only.includes('lookup')) {
      await quiet('lookup');
      results.lookup.push(await measureLookup(fleet, settings.lookup, log));
    }
    if (options.only.includes('cards')) {
      await quiet('cards');
      const baselineRows = settings.lookup.sizes[0] ?? 1e3;
      (results.cards ??= []).push(await measureCards(fleet, baselineRows, settings.cards, log));
    }
    if (options.only.includes('load')) {
      await quiet('load');
      results.load.push(await measureLoad(fleet, settings.load, log));
    }
    if (options.only.includes('page') && browser) {
      await quiet('page');
      results.page.push(await measurePage(fleet, browser, settings.page, log));
    }
    if (options.only.includes('cli')) {
      await quiet('cli');
      results.cli.push(await measureCli(fleet, settings.cli, log));
    }
    if (options.only.includes('flood')) {
      await quiet('flood');
      results.flood.push(await measureFlood(fleet, settings.flood, log));
    }
    if (options.only.includes('anon')) {
      await quiet('anon');
      (results.anon ??= []).push(await measureAnonFlood(db, server, settings.anon, log));
    }
  } finally {
    await fleet.stop();
    await server?.stop();
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  stopOnSignals();
  const started = Date.now();
  const results: BenchResults = {
    date: new Date().toISOString(),
    quick: options.quick,
    machine: describeMachine(),
    settings: { ...settingsFor(options.quick), only: options.only, dbs: options.dbs },
    lookup: [],
    cards: [],
    page: [],
    cli: [],
    load: [],
    site: undefined,
    flood: [],
    anon: [],
  };
  let failed: unknown;
  try {
    if (options.only.includes('cli')) {
      log('building the CLI (npm run build:cli)');
      await buildCli();
    }
    // The owner's pages' scripts: one build, no database.
    if (options.only.includes('site')) results.site = await measureSite(log);
    let browser: Browser | undefined;
    if (options.only.includes('page')) {
      browser = await launchChromium();
      results.machine.chromium = browser.version();
    }
    for (const db of options.dbs) await runDb(db, options, results, browser);
  } catch (error) {
    failed = error;
  } finally {
    await stopAll();
  }
  finishMachine(
    results.machine,
    await settle(results.machine, 'end', options.quick ? 0 : SETTLE_MS, log),
  );
  if (results.machine.overloaded) {
    log(
      `the load average exceeded ${results.machine.cores} cores after the machine settled: figures marked as overloaded`,
    );
  }

  const files = resultFiles(options, results.date, failed === undefined);
  const written = await writeResults(results, path.join(RESULTS, files.dir), files);
  console.log(markdown(results));
  log(`wrote ${written.map((f) => path.relative(process.cwd(), f)).join(', ')}`);
  log(`done in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
  if (failed !== undefined) {
    console.error('bench: failed:', failed);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
