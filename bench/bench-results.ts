// What one run of `npm run bench` collects: run.ts fills it in, the report reads it, and
// bench/results/<date>.json holds it (with the goals beside it).
import type { AnonFloodResult } from './anon-flood.js';
import type { CardsResult } from './cards.js';
import type { CliResult } from './cli.js';
import type { FloodResult } from './flood.js';
import type { LoadResult } from './load.js';
import type { LookupResult } from './lookup.js';
import type { Machine } from './machine.js';
import type { PageResult } from './page.js';
import type { SiteResult } from './site.js';

export interface BenchResults {
  date: string;
  quick: boolean;
  machine: Machine;
  settings: unknown;
  lookup: LookupResult[];
  /** The lookup of a card by its slug among many (older result files have none). */
  cards?: CardsResult[];
  page: PageResult[];
  cli: CliResult[];
  load: LoadResult[];
  flood: FloodResult[];
  /** Visitors under an anon flood of the costliest call (older result files have none). */
  anon?: AnonFloodResult[];
  /** The owner's pages' scripts before the first draw (older result files have none). */
  site?: SiteResult;
}
