import { useCallback, useEffect, useState } from 'react';
import { fetchStatus, type CardStatus } from '../../../../shared/core/lookup.js';
import type { Segment } from '../../../../shared/core/timeline.js';
import {
  entryStates,
  plannedTimeline,
  runs,
  type Change,
  type EntryState,
} from '../../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../../shared/core/types.js';
import { labelsOf, type ProfileLabels } from '../../../../shared/core/profiles.js';
import { OPEN_ENTRIES, listEntries, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { listOccurrences, type ServerOccurrence } from '../../../../shared/supabase/series.js';
import { siteConfig } from '../../site-config.js';
import { supabase } from '../../supabase.js';
import type { CardScope } from '../card/card-scope.js';
import { useLoad, type Loaded } from '../parts/useLoad.js';

/** What the manage page shows: the server's status and the card's entries around it. */
export interface CardState {
  /** The server's answer (`namecard_status`): its now, the active entry, the timeline. */
  status: CardStatus;
  /** Every entry that had not ended at `status.now` (Cancel's candidates), newest first. */
  open: NamecardRow[];
  /**
   * The weekly series' occurrences in force from `status.now` to the window's end, as the
   * server expands them: with `open`, every row the rule needs there.
   */
  occurrences: ServerOccurrence[];
  /**
   * Epoch ms past which `open` and `occurrences` do not tell the whole timeline (the server's
   * answer was capped there, as an endless series makes it), or null when they do.
   */
  until: number | null;
  /** The last entries, newest first (the history's candidates). */
  recent: NamecardRow[];
  /** Each entry's state at `status.now`, by id (from `open` and `recent`). */
  states: Map<number, EntryState>;
  /** The browser's clock when the answer arrived, epoch ms: how far "now" has moved since. */
  readAt: number;
}

/** The card's state as /manage reads it: loading, the state, or why it could not be read. */
export type CardStateResult = Loaded<CardState>;

/** How many past entries the history shows at most. */
export const HISTORY_SIZE = 10;
/** The state is read again at least this often, and at each change it knows of. */
const REFRESH_MS = 60_000;

/** The longest window of occurrences the page reads ahead (a year and a month). */
const WINDOW_MS = 400 * 86_400_000;

/**
 * The window the page reads occurrences for, from the server's answer: up to where its timeline
 * was capped (beyond it the page says "more follows", as the server does), else far enough for
 * every entry that has not ended and every occurrence of a series with a last date, at most
 * {@link WINDOW_MS}. Only the occurrences make the timeline incomplete past that bound (the
 * open entries are read whole): an entry that ends further on (a year and a day ahead) keeps
 * its own end, and the timeline is cut there only when a series runs past it.
 */
function windowOf(status: CardStatus, open: readonly NamecardRow[]) {
  const last = status.timeline[status.timeline.length - 1]!;
  const limit = status.now + WINDOW_MS;
  if (last.to !== null) return { to: Math.min(last.to, limit), until: Math.min(last.to, limit) };
  // A series' last occurrence starts on its last date and ends the next day at the latest.
  const seriesEnd = Math.max(
    0,
    ...(status.series ?? []).map((s) => (s.last_date ? Date.parse(s.last_date) : 0) + 3 * DAY_MS),
  );
  if (seriesEnd + 1 > limit) return { to: limit, until: limit };
  // Every occurrence ends before the limit: reading up to it, at most, tells them all.
  const to = Math.max(last.from, seriesEnd, ...open.map((row) => row.stamp_end)) + 1;
  return { to: Math.min(to, limit), until: null };
}

const DAY_MS = 86_400_000;

/** Reads the card's status, its entries and its series' occurrences, for the page. */
async function read(scope: CardScope): Promise<CardState> {
  const { data } = await supabase.auth.getSession();
  const card = scope.slug;
  const lookup = { ...siteConfig, accessToken: data.session?.access_token ?? null, card };
  // The recent entries need no instant; the open ones are those not ended at the server's now.
  const [status, recent] = await Promise.all([
    fetchStatus(lookup),
    listEntries(supabase, { card, limit: HISTORY_SIZE * 2 }),
  ]);
  // The occurrences beside the open entries, for the window the status alone asks for; read
  // again further only when an open entry ends later (it may cover occurrences up to its end).
  const guess = windowOf(status, []);
  const [open, first] = await Promise.all([
    listEntries(supabase, { card, endingAfter: status.now, limit: OPEN_ENTRIES }),
    listOccurrences(supabase, card, status.now, guess.to),
  ]);
  const window = windowOf(status, open);
  const occurrences =
    window.to > guess.to ? await listOccurrences(supabase, card, status.now, window.to) : first;
  const known = new Map([...recent, ...open].map((row) => [row.id, row]));
  const states = entryStates([...known.values()], status.now, occurrences);
  return { status, open, occurrences, until: window.until, recent, states, readAt: Date.now() };
}

/**
 * The server's now, estimated: the answer's `now` moved on by the browser's clock since it
 * arrived. A browser clock that is hours off does not matter, only how fast it runs.
 */
export function serverNow(card: CardState): number {
  return card.status.now + Math.max(0, Date.now() - card.readAt);
}

/**
 * What visitors get from `at` on (the server's now, estimated), with `change` made first when
 * one is asked about: the one rule over the entries and occurrences the page read
 * (`plannedTimeline`). The page draws its timeline with this, and End now's and Cancel's
 * questions say what follows with this and their change, so that what a question promises is
 * what the page shows once the change is made.
 *
 * @param card the card as read
 * @param at epoch ms
 * @param change End now, or Cancel of an entry or a series, or none
 */
export function cardTimeline(card: CardState, at: number, change?: Change): Segment[] {
  return plannedTimeline([...card.open, ...card.occurrences], at, { change, until: card.until });
}

/**
 * The labels the page names profiles by (`profileLabel` reads them): the card's profile list,
 * else the status's (the profiles its timeline names).
 *
 * @param card the card as read, or null
 * @param profiles the card's profiles, when read
 */
export function cardLabels(
  card: CardState | null,
  profiles: readonly ProfileEntry[] | undefined,
): ProfileLabels {
  return { ...card?.status.labels, ...labelsOf(profiles ?? []) };
}

/**
 * When to read again: just after the next start or end of any entry or occurrence the page
 * has, at most a minute away.
 */
function nextReadIn(card: CardState): number {
  const at = serverNow(card);
  const next = runs([...card.open, ...card.occurrences], at)[0]?.to;
  const wait = next == null ? REFRESH_MS : next - at + 1000;
  return Math.max(1000, Math.min(REFRESH_MS, wait));
}

/**
 * The state of the card `scope` names for the manage page: read at mount, again at each change it knows of
 * (an end or a start, so an ended entry is never shown as current), at least every minute,
 * and whenever the tab becomes visible again; `refresh` reads it at once and resolves to it
 * (`undefined` when that read failed).
 */
export function useCardState(scope: CardScope): {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
} {
  const result = useLoad(() => read(scope), [scope]);
  const { reload } = result;

  const refresh = useCallback(async (): Promise<CardState | undefined> => {
    const next = await reload();
    return next.state === 'ready' ? next.data : undefined;
  }, [reload]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [reload]);

  // Each answer schedules the next read: at the next change it knows of, or in a minute.
  useEffect(() => {
    if (result.state === 'loading') return;
    const wait = result.state === 'ready' ? nextReadIn(result.data) : REFRESH_MS;
    const timer = setTimeout(() => void reload(), wait);
    return () => clearTimeout(timer);
  }, [result, reload]);

  return { result, refresh };
}

/** How often the picture moves "now" along between reads. */
const TICK_MS = 15_000;

/**
 * The server's now for the page: the answer's own `now` right after each read, then moved on
 * every few seconds by the browser's clock (for the picture and the relative hints).
 */
export function useServerNow(card: CardState | null): number | null {
  const [moved, setMoved] = useState<{ card: CardState; now: number } | null>(null);
  useEffect(() => {
    if (!card) return;
    const timer = setInterval(() => setMoved({ card, now: serverNow(card) }), TICK_MS);
    return () => clearInterval(timer);
  }, [card]);
  if (!card) return null;
  return moved?.card === card ? moved.now : card.status.now;
}
