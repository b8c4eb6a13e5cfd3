import { describe, expect, test } from 'vitest';
import { MAIN_CARD as card } from '../../shared/core/cards.js';
import { DB_KINDS, dbNow, MAIN_CARD_SQL } from '../support/emulator.js';
import { useCallersWithoutEntries } from '../support/clients.js';
import { insertEntry } from '../support/entries.js';
import { insertSeries, type StoredSeries } from '../support/series-rows.js';

// Weekly series on both databases: the rule at an instant (private.namecard_in_force_at with
// the exact expansion, the rule's definition), local times across daylight-saving changes by
// PostgreSQL's own time-zone database, newest wins across series and entries, the lookup /go
// reads, the owner's write through /rest/v1/rpc, and end / cancel of a series.

const HOUR = 3_600_000;
const ms = (iso: string) => Date.parse(iso);

describe.each(DB_KINDS)('series over %s', (kind) => {
  const world = useCallersWithoutEntries(kind);

  /** Stores a series of the card main directly (as the database's owner); returns its id. */
  const storeSeries = (series: StoredSeries) => insertSeries(world.emulator, series);
  const storeEntry = (type: string, start: number | null, end: number) =>
    insertEntry(world.emulator, type, start, end);
  const activeAt = async (at: number) => {
    const [row] = await world.emulator.query<{ id: number; type: string }>(
      `select id, type from private.namecard_in_force_at(${MAIN_CARD_SQL}, $1, 'exact')`,
      [at],
    );
    return row ? { id: Number(row.id), type: row.type } : null;
  };
  const localInstant = async (local: string, zone: string) => {
    const [row] = await world.emulator.query<{ t: string }>(
      'select private.namecard_local_instant($1::timestamp, $2) as t',
      [local, zone],
    );
    return Number(row!.t);
  };
  /** A zone-free series (UTC) covering every day from `now - 1 h` to `now + 1 h`. */
  const aroundNow = async (type = 'photo') => {
    const now = await dbNow(world.emulator);
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    // An hour either side, so the test never runs at an occurrence's edge.
    return storeSeries({
      type,
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      start_time: hhmm(now - HOUR),
      end_time: hhmm(now + HOUR),
      time_zone: 'UTC',
    });
  };

  test('a Sunday 14:00-16:00 series set in Europe/Berlin before the spring change is in force at 14:30 local on the Sunday after it, not at 16:30', async () => {
    // Clocks go forward on Sunday 2030-03-31; the series starts the week before, in winter time.
    const id = await storeSeries({
      type: 'photo',
      weekdays: [7],
      start_time: '14:00',
      end_time: '16:00',
      time_zone: 'Europe/Berlin',
      first_date: '2030-03-24',
    });
    // 2030-04-07 14:30 CEST is 12:30 UTC; 16:30 CEST is 14:30 UTC.
    expect(await activeAt(ms('2030-04-07T12:30:00Z'))).toEqual({ id, type: 'photo' });
    expect(await activeAt(ms('2030-04-07T14:30:00Z'))).toBeNull();
    // And in winter time the week before: 14:30 CET is 13:30 UTC.
    expect(await activeAt(ms('2030-03-24T13:30:00Z'))).toEqual({ id, type: 'photo' });
    expect(await activeAt(ms('2030-03-24T15:30:00Z'))).toBeNull();
    // Not before its first date, not on other weekdays.
    expect(await activeAt(ms('2030-03-17T13:30:00Z'))).toBeNull();
    expect(await activeAt(ms('2030-04-06T12:30:00Z'))).toBeNull();
  });

  test('local times in a gap take the offset before the change; in a fold, the earlier instant', async () => {
    // Europe/Berlin: 02:30 does not exist on 2030-03-31 (read as 03:30 CEST = 01:30 UTC) and
    // happens twice on 2030-10-27 (the first time, 02:30 CEST = 00:30 UTC).
    expect(await localInstant('2030-03-31 02:30', 'Europe/Berlin')).toBe(
      ms('2030-03-31T01:30:00Z'),
    );
    expect(await localInstant('2030-10-27 02:30', 'Europe/Berlin')).toBe(
      ms('2030-10-27T00:30:00Z'),
    );
    expect(await localInstant('2030-10-27 04:00', 'Europe/Berlin')).toBe(
      ms('2030-10-27T03:00:00Z'),
    );
    // America/New_York: 2030-03-10 02:30 (gap), 2030-11-03 01:30 (fold, EDT first).
    expect(await localInstant('2030-03-10 02:30', 'America/New_York')).toBe(
      ms('2030-03-10T07:30:00Z'),
    );
    expect(await localInstant('2030-11-03 01:30', 'America/New_York')).toBe(
      ms('2030-11-03T05:30:00Z'),
    );
    // Australia/Lord_Howe shifts by 30 minutes: 2030-04-07 01:45 happens at +11 then +10:30.
    expect(await localInstant('2030-04-07 01:45', 'Australia/Lord_Howe')).toBe(
      ms('2030-04-06T14:45:00Z'),
    );
    // 2030-10-06 02:15 does not exist (02:00 +10:30 jumps to 02:30 +11): read at +10:30.
    expect(await localInstant('2030-10-06 02:15', 'Australia/Lord_Howe')).toBe(
      ms('2030-10-05T15:45:00Z'),
    );
    expect(await localInstant('2030-06-01 09:00', 'Asia/Kolkata')).toBe(ms('2030-06-01T03:30:00Z'));
  });

  test('an end at or before the start runs past midnight, the last date bounding the starts', async () => {
    const id = await storeSeries({
      type: 'photo',
      weekdays: [5],
      start_time: '22:00',
      end_time: '02:00',
      time_zone: 'Asia/Kolkata',
      last_date: '2030-06-07',
    });
    // Friday 2030-06-07 22:00 IST = 16:30 UTC, until Saturday 02:00 IST = 20:30 UTC.
    expect(await activeAt(ms('2030-06-07T20:00:00Z'))).toEqual({ id, type: 'photo' });
    expect(await activeAt(ms('2030-06-07T20:30:00Z'))).toBeNull();
    expect(await activeAt(ms('2030-06-14T17:00:00Z'))).toBeNull();
    const [row] = await world.emulator.query<{ to: string }>(
      `select "to" from private.namecard_timeline_until(${MAIN_CARD_SQL}, $1, null, 5)
       where type = 'photo'`,
      [ms('2030-06-05T00:00:00Z')],
    );
    expect(Number(row!.to)).toBe(ms('2030-06-07T20:30:00Z'));
  });

  test('newest wins across entries and series: ids come from one sequence', async () => {
    const now = await dbNow(world.emulator);
    const before = await storeEntry('main', null, now + 10 * HOUR);
    const series = await aroundNow('photo');
    expect(series).toBeGreaterThan(before);
    expect(await activeAt(now)).toEqual({ id: series, type: 'photo' });
    const after = await storeEntry('main', null, now + 10 * HOUR);
    expect(after).toBeGreaterThan(series);
    expect(await activeAt(now)).toEqual({ id: after, type: 'main' });
  });

  test("/go's lookup (one GET of rpc/namecard_go as anon) answers the series occurrence in force", async () => {
    const id = await aroundNow('photo');
    const { data, error } = await world.anon
      .rpc('namecard_go', { card }, { get: true })
      .select('*');
    expect(error).toBeNull();
    expect(data).toEqual([expect.objectContaining({ id, type: 'photo', url: null })]);
  });

  test('the owner sets a series through rpc/namecard_set_series in one request that answers the status', async () => {
    const now = await dbNow(world.emulator);
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    const { data, error } = await world.owner.rpc('namecard_set_series', {
      type: 'photo',
      weekdays: [7, 1, 2, 3, 4, 5, 6, 6],
      start_time: hhmm(now - HOUR),
      end_time: hhmm(now + HOUR),
      time_zone: 'UTC',
      first_date: null,
      last_date: null,
      card,
    });
    expect(error).toBeNull();
    const answer = data as {
      series: { id: number; weekdays: number[]; created_by: string };
      active: { id: number; type: string };
    };
    expect(answer.series.weekdays).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(answer.active).toMatchObject({ id: answer.series.id, type: 'photo' });
    const rows = await world.emulator.query<{ id: number }>(
      'select id from public.namecard_series',
    );
    expect(rows.map((r) => Number(r.id))).toEqual([answer.series.id]);
  });

  test("only the card's members who may write set a series: anon and a stranger are told no such card, nothing stored", async () => {
    const args = {
      type: 'photo',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
      card,
    };
    for (const caller of [world.anon, world.stranger]) {
      const refused = await caller.rpc('namecard_set_series', args);
      expect(refused.status).toBe(404);
      expect(refused.error?.code).toBe('PT404');
    }
    expect(await world.emulator.query('select id from public.namecard_series')).toEqual([]);
  });

  test.each([
    [
      { time_zone: 'CEST' },
      '22023',
      'time_zone must be an IANA time zone such as Europe/Berlin, not CEST',
    ],
    [{ time_zone: 'Mars/Olympus' }, '22023', 'time_zone must be an IANA time zone'],
    [{ weekdays: [8] }, '23514', 'namecard_series_weekdays_form'],
    [{ weekdays: [] }, '23514', 'namecard_series_weekdays_form'],
    [{ start_time: '10:00:30' }, '23514', 'namecard_series_start_minute'],
    [{ first_date: '2030-02-01', last_date: '2030-01-01' }, '23514', 'namecard_series_dates_order'],
    [{ type: 'nope' }, '23503', 'unknown profile: nope'],
  ])('refuses %j (%s), nothing stored', async (change, code, message) => {
    const { error } = await world.owner.rpc('namecard_set_series', {
      type: 'photo',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
      first_date: null,
      last_date: null,
      card,
      ...change,
    });
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(message);
    expect(await world.emulator.query('select id from public.namecard_series')).toEqual([]);
  });

  test('end during an occurrence stops that occurrence and keeps the series', async () => {
    const id = await aroundNow('photo');
    const { data, error } = await world.owner.rpc('namecard_end_now', { card });
    expect(error).toBeNull();
    const answer = data as { ended: { id: number; series?: boolean }[]; active: unknown };
    expect(answer.ended).toEqual([
      expect.objectContaining({ id, series: true, stop_kind: 'ended' }),
    ]);
    expect(answer.active).toBeNull();
    const now = await dbNow(world.emulator);
    expect(await activeAt(now)).toBeNull();
    // Tomorrow's occurrence is still there.
    expect(await activeAt(now + 24 * HOUR)).toEqual({ id, type: 'photo' });
    const [series] = await world.emulator.query<{ stop_kind: string | null }>(
      'select stop_kind from public.namecard_series where id = $1',
      [id],
    );
    expect(series!.stop_kind).toBeNull();
  });

  test('cancel of a series stops it for good, keeping its past occurrences', async () => {
    const id = await aroundNow('photo');
    const { data, error } = await world.owner.rpc('namecard_cancel', { entry_id: id, card });
    expect(error).toBeNull();
    const answer = data as { cancelled: { id: number; series: boolean; stop_kind: string } };
    expect(answer.cancelled).toMatchObject({ id, series: true, stop_kind: 'cancelled' });
    const now = await dbNow(world.emulator);
    expect(await activeAt(now)).toBeNull();
    expect(await activeAt(now + 24 * HOUR)).toBeNull();
    // Yesterday's occurrence is history: still in force at that time.
    expect(await activeAt(now - 24 * HOUR)).toEqual({ id, type: 'photo' });
    const again = await world.owner.rpc('namecard_cancel', { entry_id: id, card });
    expect(again.status).toBe(409);
    expect(again.error?.message).toBe(`Series ${id} was already cancelled`);
  });

  test('a profile a live series names cannot be removed', async () => {
    await world.emulator.query(
      `insert into public.namecard_profile (card_id, name, label, url) values (${MAIN_CARD_SQL}, 'shop', 'Shop', 'https://me.example/shop')`,
    );
    const id = await storeSeries({
      type: 'shop',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
    });
    const { error } = await world.owner.rpc('namecard_remove_profile', {
      profile_name: 'shop',
      card,
    });
    expect(error?.message).toBe(`profile shop is in use by entries series ${id}`);
  });
});
