// The report's part for the lookup of a card by its slug among many: its goals and
// its detail table with the plans. Older result files have no `cards`.
import type { BenchResults } from './bench-results.js';
import type { CardsResult } from './cards.js';
import type { Goal } from './goals.js';
import { ms, rows, x } from './report-format.js';

/** The cases of one result: without series, and with live series spread over the cards. */
function cases(c: CardsResult, label: (series: number) => string, none: string) {
  return [
    [none, c.none] as const,
    ...(c.series ? [[label(c.series.series), c.series] as const] : []),
  ];
}

/** The goals of the lookup by slug among many cards, without and with series. */
export function cardsGoals(r: BenchResults): Goal[] {
  return (r.cards ?? []).flatMap((c) =>
    cases(c, (n) => `, ${rows(n)} live series spread over them`, '').map(([what, k]) => ({
      goal: `Lookup by slug p50 with ${rows(c.cards)} cards × ${rows(c.entries / c.cards)} entries${what} ≤ 1.5× the single-card lookup at ${rows(c.baselineRows)} entries`,
      db: c.db,
      measured: `${x(k.ratio)} (${ms(k.baseline.p50)} → ${ms(k.p50)}; ${ms(k.plan.executionMs)} in the database)`,
      met: k.ratio <= 1.5 && k.errors === 0 && k.mismatches === 0,
    })),
  );
}

/** The detail table and plans of the lookup by slug. */
export function cardsTable(r: BenchResults): string[] {
  const all = r.cards ?? [];
  if (all.length === 0) return [];
  const lines = [
    '',
    'Lookup of a card by its slug (`rpc/namecard_go?card=<slug>`, a different card each request), beside the single-card lookup (of the card main) in the same rounds:',
    '',
    '| db | cards × entries | case | p50 | p99 | single card: p50 | ratio | in the database | answers ≠ the rule |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of all) {
    for (const [what, k] of cases(c, (n) => `${n.toLocaleString('en-US')} series`, 'no series')) {
      lines.push(
        `| ${c.db} | ${c.cards.toLocaleString('en-US')} × ${(c.entries / c.cards).toLocaleString('en-US')} | ${what} | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.baseline.p50)} | ${x(k.ratio)} | ${ms(k.plan.executionMs)} | ${k.mismatches} |`,
      );
    }
  }
  for (const c of all) {
    lines.push(
      '',
      `<details><summary>${c.db}: EXPLAIN (ANALYZE, BUFFERS) of namecard_go's query for one card</summary>`,
      '',
      '```',
      c.none.plan.text,
      '```',
      '',
      '</details>',
    );
  }
  return lines;
}
