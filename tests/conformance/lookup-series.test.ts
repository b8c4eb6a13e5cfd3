import { describe, expect, test } from 'vitest';
import { MAIN_CARD as card } from '../../shared/core/cards.js';
import { DB_KINDS, dbNow, MAIN_CARD_SQL } from '../support/emulator.js';
import { useCallersWithoutEntries } from '../support/clients.js';

// The lookup /go reads (rpc/namecard_go, through private.namecard_in_force_at with series
// `lookup`) takes series occurrences from a materialised table; the same rule with `exact`
// expands the series at the instant and is the rule's definition. The two must answer alike at
// every instant: inside the materialised horizon and outside it (before the series was stored,
// beyond 400 days, or after the horizon passed with no owner write), around daylight-saving
// changes, and after end and cancel.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];

/** A seeded generator (mulberry32), so that a failure can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(DB_KINDS)("/go's lookup with series over %s", { timeout: 120_000 }, (kind) => {
  const world = useCallersWithoutEntries(kind);

  /**
   * Compares the card main's lookup with the rule's definition at each instant (epoch ms) in one
   * statement; returns the instants where they differ, with both answers.
   */
  const disagreements = async (instants: number[]) => {
    expect(instants.length).toBeGreaterThan(0);
    return world.emulator.query<{ at: string; lookup: string | null; rule: string | null }>(
      `select i.t::text as at,
         (select row(l.id, l.type, l.stamp_start, l.stamp_end)::text
            from private.namecard_in_force_at(${MAIN_CARD_SQL}, i.t, 'lookup') as l) as lookup,
         (select row(a.id, a.type, a.stamp_start, a.stamp_end)::text
            from private.namecard_in_force_at(${MAIN_CARD_SQL}, i.t, 'exact') as a) as rule
       from unnest($1::bigint[]) as i (t)
       where (select row(l.id, l.type, l.stamp_start, l.stamp_end)::text
                from private.namecard_in_force_at(${MAIN_CARD_SQL}, i.t, 'lookup') as l)
         is distinct from
             (select row(a.id, a.type, a.stamp_start, a.stamp_end)::text
                from private.namecard_in_force_at(${MAIN_CARD_SQL}, i.t, 'exact') as a)`,
      [`{${instants.join(',')}}`],
    );
  };
  /** How many instants found something in force (so that a comparison is not all "main"). */
  const inForce = async (instants: number[]) => {
    const [row] = await world.emulator.query<{ n: number }>(
      `select count(*)::int as n from unnest($1::bigint[]) as i (t)
       where exists (
         select from private.namecard_in_force_at(${MAIN_CARD_SQL}, i.t, 'exact'))`,
      [`{${instants.join(',')}}`],
    );
    return row!.n;
  };
  /** The instants (epoch ms) in [from, to) at which `zone`'s UTC offset changes. */
  const transitions = async (zone: string, from: number, to: number) => {
    const rows = await world.emulator.query<{ t: string }>(
      `select (extract(epoch from h) * 1000)::bigint::text as t
       from generate_series(
         date_trunc('hour', to_timestamp($2 / 1000.0)), to_timestamp($3 / 1000.0), interval '30 minutes'
       ) as h
       where (h at time zone $1) - (h at time zone 'UTC')
         <> ((h - interval '30 minutes') at time zone $1) - ((h - interval '30 minutes') at time zone 'UTC')`,
      [zone, from, to],
    );
    return rows.map((r) => Number(r.t));
  };
  /** The card main's lookup as /go's one GET asks it, as anon. */
  const lookup = () => world.anon.rpc('namecard_go', { card }, { get: true }).select('id');
  const hhmm = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

  /** Stores `count` random series (and a few one-off entries between them) as the owner would. */
  const storeRandom = async (seed: number, count: number) => {
    const next = random(seed);
    for (let i = 0; i < count; i++) {
      // Times near the changes' hours (00:00-04:00) and across the day, some past midnight.
      const start = Math.floor(next() * 48) * 30;
      const end =
        next() < 0.3
          ? (start + 30 * Math.floor(1 + next() * 6)) % 1440
          : Math.floor(next() * 48) * 30;
      const weekdays = [1, 2, 3, 4, 5, 6, 7].filter(() => next() < 0.5);
      // Some with a first date (back or ahead), some with a last date (inside or past the horizon).
      const first = next() < 0.2 ? Math.floor(next() * 400) - 200 : null;
      const last = next() < 0.25 ? Math.floor(next() * 500) : null;
      await world.emulator.query(
        `insert into public.namecard_series
           (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date)
         values (${MAIN_CARD_SQL}, $1, $2::smallint[], $3::time, $4::time, $5,
           current_date + $6::integer,
           current_date + greatest(coalesce($6::integer, $7::integer), $7::integer))`,
        [
          next() < 0.5 ? 'photo' : 'main',
          `{${(weekdays.length ? weekdays : [7]).join(',')}}`,
          hhmm(start),
          hhmm(end),
          ZONES[Math.floor(next() * ZONES.length)],
          first,
          last,
        ],
      );
      if (next() < 0.3) {
        const now = await dbNow(world.emulator);
        const from = now + Math.floor(next() * 300) * DAY + Math.floor(next() * 24) * HOUR;
        await world.emulator.query(
          `insert into public.namecard (card_id, type, stamp_start, stamp_end) values (${MAIN_CARD_SQL}, $1, $2, $3)`,
          ['photo', from, from + Math.floor(1 + next() * 30) * HOUR],
        );
      }
    }
  };

  test("agrees with the rule's definition around every daylight-saving change within and beyond the horizon, in four zones", async () => {
    await storeRandom(27, 24);
    const now = await dbNow(world.emulator);
    const instants: number[] = [];
    for (const zone of ZONES) {
      // From a year back (before the series were stored) to 500 days on (past the horizon).
      for (const t of await transitions(zone, now - 365 * DAY, now + 500 * DAY)) {
        for (const d of [-26, -25, -24, -2, -1, 0, 1, 2, 23, 24, 25]) {
          for (const m of [-31, -1, 0, 1, 29, 30, 31]) instants.push(t + d * HOUR + m * 60_000);
        }
      }
    }
    // Kolkata has no change: random instants over the same span besides.
    const next = random(5);
    for (let i = 0; i < 1500; i++) instants.push(now - 365 * DAY + Math.floor(next() * 865 * DAY));
    expect(await disagreements(instants)).toEqual([]);
    // The comparison is not vacuous: series were in force at many of these instants.
    expect(await inForce(instants)).toBeGreaterThan(instants.length / 10);
    // Most of the window is answered from the table: its rows cover the horizon.
    const [rows] = await world.emulator.query<{ n: number; last: string }>(
      'select count(*)::int as n, max(stamp_start)::text as last from private.namecard_occurrence',
    );
    expect(rows!.n).toBeGreaterThan(24 * 50);
    expect(Number(rows!.last)).toBeGreaterThan(now + 390 * DAY);
  });

  test("the lookup /go reads, as anon, answers the series occurrence the rule's definition answers now", async () => {
    const now = await dbNow(world.emulator);
    const at = new Date(now);
    const minutes = at.getUTCHours() * 60 + at.getUTCMinutes();
    // Every day, an hour either side of now, in UTC; an older entry loses to it.
    await world.emulator.query(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end) values (${MAIN_CARD_SQL}, 'main', null, $1)`,
      [now + 10 * HOUR],
    );
    const [series] = await world.emulator.query<{ id: string }>(
      `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
       values (${MAIN_CARD_SQL}, 'photo', '{1,2,3,4,5,6,7}', $1::time, $2::time, 'UTC') returning id`,
      [hhmm((minutes + 1440 - 60) % 1440), hhmm((minutes + 60) % 1440)],
    );
    const id = Number(series!.id);
    const { data, error } = await world.anon
      .rpc('namecard_go', { card }, { get: true })
      .select('id,type');
    expect(error).toBeNull();
    expect(data).toEqual([{ id, type: 'photo' }]);
    const [rule] = await world.emulator.query<{ id: string }>(
      `select id::text from private.namecard_in_force_at(
         ${MAIN_CARD_SQL}, (extract(epoch from now()) * 1000)::bigint, 'exact')`,
    );
    expect(Number(rule!.id)).toBe(id);
  });

  test("after end (the series stays) and cancel (it stops for good), the lookup agrees with the rule's definition", async () => {
    const now = await dbNow(world.emulator);
    // Now's wall-clock time in Berlin, in minutes after midnight.
    const [hour, minute] = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(now)
      .split(':')
      .map(Number) as [number, number];
    const minutes = hour * 60 + minute;
    const args = {
      type: 'photo',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      start_time: hhmm((minutes + 1440 - 60) % 1440),
      end_time: hhmm((minutes + 60) % 1440),
      time_zone: 'Europe/Berlin',
      first_date: null,
      last_date: null,
      card,
    };
    const { data: set, error: setError } = await world.owner.rpc('namecard_set_series', args);
    expect(setError).toBeNull();
    const id = (set as { series: { id: number } }).series.id;
    const around = (t: number) =>
      Array.from({ length: 24 * 9 }, (_, i) => t - 4 * DAY + i * 30 * 60_000 + 7_000);
    expect((await lookup()).data).toEqual([{ id }]);

    const ended = await world.owner.rpc('namecard_end_now', { card });
    expect(ended.error).toBeNull();
    const afterEnd = await dbNow(world.emulator);
    expect((await lookup()).data).toEqual([]);
    expect(await disagreements(around(afterEnd))).toEqual([]);
    // The series stays: tomorrow's occurrence is in force, by both.
    const [tomorrow] = await world.emulator.query<{ id: string }>(
      `select id::text from private.namecard_in_force_at(${MAIN_CARD_SQL}, $1, 'lookup')`,
      [afterEnd + DAY],
    );
    expect(Number(tomorrow!.id)).toBe(id);

    // A second series in force now (newer: it wins), cancelled during its occurrence: that
    // occurrence ends then, and neither series is in force afterwards.
    const { data: second, error: secondError } = await world.owner.rpc('namecard_set_series', {
      ...args,
      type: 'main',
    });
    expect(secondError).toBeNull();
    const secondId = (second as { series: { id: number } }).series.id;
    expect((await lookup()).data).toEqual([{ id: secondId }]);
    for (const target of [secondId, id]) {
      const cancelled = await world.owner.rpc('namecard_cancel', { entry_id: target, card });
      expect(cancelled.error).toBeNull();
    }
    const afterCancel = await dbNow(world.emulator);
    expect((await lookup()).data).toEqual([]);
    expect(await disagreements(around(afterCancel))).toEqual([]);
    expect(
      await world.emulator.query(
        `select id from private.namecard_in_force_at(${MAIN_CARD_SQL}, $1, 'lookup')`,
        [afterCancel + DAY],
      ),
    ).toEqual([]);
    // Yesterday's occurrences are history, by both: the newer series won then.
    const [yesterday] = await world.emulator.query<{ id: string }>(
      `select id::text from private.namecard_in_force_at(${MAIN_CARD_SQL}, $1, 'lookup')`,
      [afterCancel - DAY],
    );
    expect(Number(yesterday!.id)).toBe(secondId);
  });

  test('when the materialised horizon has passed (no owner write for months), the lookup is still exact, and an owner write extends it', async () => {
    await storeRandom(8, 6);
    const now = await dbNow(world.emulator);
    // As if the last write had been 500 days ago: the windows end before now.
    // As if the series had been stored long ago and nobody had written since their horizon
    // passed 100 days ago: an empty window, the occurrences up to it in the table.
    const passed = now - 100 * DAY;
    await world.emulator.query('delete from private.namecard_occurrence');
    await world.emulator.query(
      'update private.namecard_series_window set covered_from = $1, covered_until = $1',
      [passed],
    );
    await world.emulator.query(
      'select private.namecard_series_fill(series_id, $1, $2) from private.namecard_series_window',
      [passed - 3 * DAY, passed],
    );
    const next = random(11);
    const instants = Array.from(
      { length: 600 },
      () => now - 150 * DAY + Math.floor(next() * 300 * DAY),
    );
    expect(await disagreements(instants)).toEqual([]);
    expect(await inForce(instants)).toBeGreaterThan(30);

    // Any write of an entry (here one stored straight in the table namecard_set writes) moves
    // the horizon.
    await world.emulator.query(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end) values (${MAIN_CARD_SQL}, 'photo', $1, $2)`,
      [now + 1000 * DAY, now + 1001 * DAY],
    );
    const [window] = await world.emulator.query<{ until: string }>(
      'select min(covered_until)::text as until from private.namecard_series_window',
    );
    expect(Number(window!.until)).toBeGreaterThan(now + 399 * DAY);
    expect(await disagreements(instants)).toEqual([]);
  });
  test('a series restored without its window (triggers off) is materialised by the next owner write, and the lookup then agrees', async () => {
    await storeRandom(21, 4);
    const now = await dbNow(world.emulator);
    // As a data-only restore of public without private leaves it: series rows, no window,
    // no occurrences.
    await world.emulator.query('delete from private.namecard_occurrence');
    await world.emulator.query('delete from private.namecard_series_window');
    await world.emulator.query(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end) values (${MAIN_CARD_SQL}, 'photo', $1, $2)`,
      [now + 1000 * DAY, now + 1001 * DAY],
    );
    const [counts] = await world.emulator.query<{ series: number; windows: number }>(
      `select (select count(*)::int from public.namecard_series) as series,
              (select count(*)::int from private.namecard_series_window) as windows`,
    );
    expect(counts!.windows).toBe(counts!.series);
    const next = random(23);
    const instants = Array.from({ length: 400 }, () => now + Math.floor(next() * 300 * DAY));
    expect(await disagreements(instants)).toEqual([]);
    expect(await inForce(instants)).toBeGreaterThan(20);
  });
});
