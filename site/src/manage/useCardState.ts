import { useCallback, useEffect, useState } from 'react';
import { fetchStatus, type CardStatus } from '../../../shared/core/lookup.js';
import { entryStates, runs, timeline, type EntryState } from '../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../shared/core/types.js';
import { OPEN_ENTRIES, listEntries } from '../../../shared/supabase/data.js';
import { siteConfig } from '../site-config.js';
import { supabase } from '../supabase.js';
import { useLoad, type Loaded } from './useLoad.js';

/** What the manage page shows: the server's status and the owner's entries around it. */
export interface CardState {
  /** The server's answer (view `namecard_status`): its now, the active entry, the timeline. */
  status: CardStatus;
  /** Every entry that had not ended at `status.now` (Cancel's candidates), newest first. */
  open: NamecardRow[];
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

async function read(): Promise<CardState> {
  const { data } = await supabase.auth.getSession();
  const lookup = { ...siteConfig, accessToken: data.session?.access_token ?? null };
  // The recent entries need no instant; the open ones are those not ended at the server's now.
  const [status, recent] = await Promise.all([
    fetchStatus(lookup),
    listEntries(supabase, { owner: true, limit: HISTORY_SIZE * 2 }),
  ]);
  const open = await listEntries(supabase, {
    owner: true,
    endingAfter: status.now,
    limit: OPEN_ENTRIES,
  });
  const known = new Map([...recent, ...open].map((row) => [row.id, row]));
  const states = entryStates([...known.values()], status.now);
  return { status, open, recent, states, readAt: Date.now() };
}

/**
 * The server's now, estimated: the answer's `now` moved on by the browser's clock since it
 * arrived. A browser clock that is hours off does not matter, only how fast it runs.
 */
export function serverNow(card: CardState): number {
  return card.status.now + Math.max(0, Date.now() - card.readAt);
}

/**
 * The timeline at `at` (the server's now, estimated): the server's own answer (entries and the
 * weekly series' occurrences) at the instant it read, cut at `at` as "now" moves on; past the
 * end of that answer, the shared pure rule (`timeline()` over the open entries).
 */
export function timelineAt(card: CardState, at: number): CardStatus['timeline'] {
  if (at <= card.status.now) return card.status.timeline;
  const ahead = card.status.timeline.filter((s) => s.to === null || s.to > at);
  if (ahead.length === 0) return timeline(card.open, at);
  return ahead.map((s, i) => (i === 0 ? { ...s, from: Math.max(s.from, at) } : s));
}

/**
 * When to read again: just after the next start or end of any entry or occurrence the server's
 * timeline names, at most a minute away.
 */
function nextReadIn(card: CardState): number {
  const at = serverNow(card);
  const ends = [
    runs(card.open, at)[0]?.to,
    card.status.timeline.find((s) => s.to !== null && s.to > at)?.to,
  ].filter((t): t is number => t != null);
  const wait = ends.length === 0 ? REFRESH_MS : Math.min(...ends) - at + 1000;
  return Math.max(1000, Math.min(REFRESH_MS, wait));
}

/**
 * The card's state for the manage page: read at mount, again at each change it knows of
 * (an end or a start, so an ended entry is never shown as current), at least every minute,
 * and whenever the tab becomes visible again; `refresh` reads it at once and resolves to it
 * (`undefined` when that read failed).
 */
export function useCardState(): {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
} {
  const result = useLoad(read, []);
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
