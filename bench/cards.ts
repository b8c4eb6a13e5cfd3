// Measurement 1b: the visitor's lookup of a card by its slug against the single-card
// lookup. One table holds `cards` cards × `perCard` entries (10^4 × 10^2 = 10^6), a tenth of
// each card's entries not started yet; each request is /go's GET of a card's link
// (`fetchActiveEntry` with `card`: rpc/namecard_go?card=<slug>), a different card every time.
// It is timed against the bare /go lookup of the smallest single-card table (10^3 entries, the
// card main's rpc/namecard_go) in the same interleaved rounds; then again with live weekly series
// spread over the cards, the lookups going to the cards that have one.
import { MAIN_CARD } from '../shared/core/cards.js';
import { fetchActiveEntry } from '../shared/core/lookup.js';
import type { BenchEmulator, DbKind } from './emulator.js';
import type { Plan } from './explain.js';
import type { Fleet, FilledTable } from './fleet.js';
import { addSeries } from './lookup.js';
import { medianOfRounds, msSince, percentiles, type Percentiles } from './stats.js';

export interface CardsSettings {
  /** Cards besides the first, each with `perCard` entries. */
  cards: number;
  perCard: number;
  /** Live weekly series spread over the cards for the second case. */
  series: number;
  rounds: number;
  requestsPerRound: number;
  warmup: number;
}

/** One case: the cards' lookup beside the single-card baseline, in the same rounds. */
export interface CardsCase extends Percentiles {
  rounds: Percentiles[];
  errors: number;
  /** Lookups (of 20) whose answer differed from the rule's definition at the same instant. */
  mismatches: number;
  baseline: Percentiles;
  /** p50 ÷ the baseline's p50. */
  ratio: number;
  /** EXPLAIN (ANALYZE, BUFFERS) of namecard_go's query for one card. */
  plan: Plan;
}

export interface CardsResult {
  db: DbKind;
  cards: number;
  entries: number;
  /** The single-card table the baseline reads (entries). */
  baselineRows: number;
  none: CardsCase;
  /** With `series` live series spread over the cards (absent when 0). */
  series?: CardsCase & { series: number };
}

const MINUTE = 60_000;
/** When a card's not-yet-started entries begin, as in lookup.ts: 8 days on. */
const FUTURE_FROM = 8 * 24 * 60 * MINUTE;

/** The slug of card number `i` (1-based) of the bench. */
const slugOf = (i: number) => `card-${String(i).padStart(5, '0')}`;

/**
 * Fills the cards table as the superuser: `cards` cards with their main and photo profiles,
 * then `cards × perCard` entries dealt round the cards (ids interleaved, as writes of many
 * owners would be), all ended but every card's newest tenth, which starts from 8 days on;
 * then VACUUM ANALYZE. Returns the time it took, ms.
 */
export function fillCards(settings: Pick<CardsSettings, 'cards' | 'perCard'>) {
  return async (emulator: BenchEmulator): Promise<number> => {
    const start = process.hrtime.bigint();
    const now = Date.now();
    await emulator.query(
      `insert into public.namecard_card (slug, name)
       select 'card-' || lpad(g::text, 5, '0'), 'Card ' || g from generate_series(1, $1::integer) g`,
      [settings.cards],
    );
    await emulator.query(
      `insert into public.namecard_profile (card_id, name, label)
       select c.id, p.name, p.label from public.namecard_card as c
       cross join (values ('main', 'Main Profile'), ('photo', 'Photographer')) as p (name, label)
       where c.slug <> '${MAIN_CARD}'`,
    );
    // Entry n goes to card 2 + n % cards; its round k = n / cards is its place in that card.
    await emulator.query(
      `insert into public.namecard (card_id, stamp_start, stamp_end, type, created_by)
       select 2 + n % $2::integer,
         case when k >= $3::integer * 9 / 10 then $1::bigint + ${FUTURE_FROM} + k * ${MINUTE} end,
         case when k >= $3::integer * 9 / 10 then $1::bigint + ${FUTURE_FROM} + (k + 1) * ${MINUTE} - 1
           else $1::bigint - ($3::integer - k + 60) * ${MINUTE} end,
         case when n % 3 = 0 then 'photo' else 'main' end,
         null
       from generate_series(0, $2::integer * $3::integer - 1) as n
       cross join lateral (select n / $2::integer as k) as r`,
      [now, settings.cards, settings.perCard],
    );
    await emulator.query('vacuum analyze public.namecard');
    await emulator.query('analyze public.namecard_card');
    await emulator.query('analyze public.namecard_profile');
    return msSince(start);
  };
}

/**
 * Adds `count` live weekly series spread evenly over the cards (lookup.ts's `addSeries`, then
 * each moved to a card of its own, its occurrences rebuilt there).
 * @returns the slugs of the cards that now have a series
 */
async function spreadSeries(
  emulator: BenchEmulator,
  cards: number,
  count: number,
): Promise<string[]> {
  await addSeries(emulator, count);
  // Card 2 + k × step for the k-th series: far apart, each card one series at most.
  const step = Math.max(1, Math.floor(cards / count));
  const moved = await emulator.query<{ slug: string }>(
    `with s as (select id, row_number() over (order by id) - 1 as k from public.namecard_series)
     update public.namecard_series as x set card_id = 2 + (s.k * $1::integer) % $2::integer
     from s where s.id = x.id
     returning (select c.slug from public.namecard_card as c where c.id = x.card_id)`,
    [step, cards],
  );
  // The occurrences and windows follow their series' card (the update rebuilt them).
  await emulator.query('analyze public.namecard_series');
  await emulator.query('analyze private.namecard_occurrence');
  await emulator.query('analyze private.namecard_series_window');
  return moved.map((r) => r.slug);
}

/** One timed read of `fetchActiveEntry` (the card main's lookup, or another card's), ms. */
async function timed(emulator: BenchEmulator, card?: string): Promise<number> {
  const start = process.hrtime.bigint();
  await fetchActiveEntry({
    supabaseUrl: emulator.url,
    anonKey: emulator.anonKey,
    timeoutMs: 10_000,
    card: card ?? MAIN_CARD,
  });
  return msSince(start);
}

/**
 * How many of 20 card lookups answered otherwise than the rule's definition at the same instant
 * (private.namecard_in_force_at with the exact expansion of the series).
 */
async function countMismatches(emulator: BenchEmulator, slugs: string[]): Promise<number> {
  let mismatches = 0;
  for (let i = 0; i < 20; i++) {
    const slug = slugs[(i * 7919) % slugs.length]!;
    const [row] = await emulator.query<{ same: boolean }>(
      `select (select g.id from public.namecard_go($1) as g)
         is not distinct from
         (select r.id from public.namecard_card as c
          cross join lateral private.namecard_in_force_at(c.id, (extract(epoch from now()) * 1000)::bigint, 'exact') as r
          where c.slug = $1) as same`,
      [slug],
    );
    if (!row?.same) mismatches++;
  }
  return mismatches;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of what namecard_go runs for one slug (its body; the function,
 * a security definer, is one node to its caller).
 */
export async function explainGo(emulator: BenchEmulator, slug: string): Promise<Plan> {
  const rows = await emulator.query<Record<string, string>>(
    `explain (analyze, buffers)
     select a.id, a.type, a.stamp_start, a.stamp_end, private.namecard_profile_url_of(c.id, a.type)
     from public.namecard_card as c
     cross join lateral private.namecard_in_force_at(c.id, (extract(epoch from now()) * 1000)::bigint, 'lookup') as a
     where c.removed_at is null and c.slug = $1`,
    [slug],
  );
  const text = rows.map((row) => Object.values(row)[0] ?? '').join('\n');
  const match = /Execution Time: ([\d.]+) ms/.exec(text);
  return { text, executionMs: match ? Number(match[1]) : Number.NaN };
}

/** Interleaved rounds of the baseline (main's lookup) and the cards' lookups over `slugs`. */
async function rounds(
  baseline: FilledTable,
  cards: FilledTable,
  slugs: string[],
  settings: CardsSettings,
): Promise<{ cards: Percentiles[]; baseline: Percentiles[]; errors: number }> {
  const out = { cards: [] as Percentiles[], baseline: [] as Percentiles[], errors: 0 };
  let next = 0;
  const card = () => slugs[(next++ * 7919) % slugs.length]!;
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? ['baseline', 'cards'] : ['cards', 'baseline'];
    for (const which of order) {
      const run = () =>
        which === 'cards' ? timed(cards.emulator, card()) : timed(baseline.emulator);
      const warmup = round === 0 ? settings.warmup : Math.ceil(settings.warmup / 10);
      for (let i = 0; i < warmup; i++) await run().catch(() => 0);
      const samples: number[] = [];
      for (let i = 0; i < settings.requestsPerRound; i++) {
        try {
          samples.push(await run());
        } catch {
          out.errors++;
        }
      }
      (which === 'cards' ? out.cards : out.baseline).push(percentiles(samples));
    }
  }
  return out;
}

async function measureCase(
  baseline: FilledTable,
  cards: FilledTable,
  slugs: string[],
  settings: CardsSettings,
): Promise<CardsCase> {
  const r = await rounds(baseline, cards, slugs, settings);
  const withCards = medianOfRounds(r.cards);
  const base = medianOfRounds(r.baseline);
  return {
    ...withCards,
    rounds: r.cards,
    errors: r.errors,
    mismatches: await countMismatches(cards.emulator, slugs),
    baseline: base,
    ratio: withCards.p50 / base.p50,
    plan: await explainGo(cards.emulator, slugs[0]!),
  };
}

/**
 * The cards' lookup beside the single-card baseline (`baselineRows` entries), without and with
 * live series spread over the cards; the series are removed afterwards.
 */
export async function measureCards(
  fleet: Fleet,
  baselineRows: number,
  settings: CardsSettings,
  log: (line: string) => void,
): Promise<CardsResult> {
  const entries = settings.cards * settings.perCard;
  const baseline = await fleet.table(baselineRows);
  const cards = await fleet.table(entries, '-cards', fillCards(settings));
  const slugs = Array.from({ length: settings.cards }, (_, i) => slugOf(i + 1));
  const none = await measureCase(baseline, cards, slugs, settings);
  const line = (what: string, c: CardsCase) =>
    `${fleet.db} lookup by slug, ${what}: p50 ${c.p50.toFixed(2)} ms (single card, ${baselineRows.toLocaleString('en-US')} entries: ${c.baseline.p50.toFixed(2)} ms) = ${c.ratio.toFixed(2)}x; plan ${c.plan.executionMs} ms; ${c.mismatches} mismatches, ${c.errors} errors`;
  log(line(`${settings.cards.toLocaleString('en-US')} cards × ${settings.perCard}`, none));
  const result: CardsResult = { db: fleet.db, cards: settings.cards, entries, baselineRows, none };
  if (settings.series > 0) {
    try {
      const withSeries = await spreadSeries(cards.emulator, settings.cards, settings.series);
      const series = await measureCase(baseline, cards, withSeries, settings);
      result.series = { ...series, series: settings.series };
      log(line(`${settings.series} series spread over the cards`, series));
    } finally {
      await cards.emulator.query('delete from public.namecard_series');
    }
  }
  return result;
}
