import { useCallback, useEffect, useState } from 'react';
import { fetchActiveEntry, fetchNextEntry } from '../../../shared/core/lookup.js';
import {
  changesAfter,
  entryStates,
  type Change,
  type EntryState,
} from '../../../shared/core/rules.js';
import type { NamecardRow } from '../../../shared/core/types.js';
import { listEntries, OPEN_ENTRIES } from '../../../shared/supabase/data.js';
import { siteConfig } from '../site-config.js';
import { supabase } from '../supabase.js';
import { errorMessage } from './describe.js';

/** What the manage page shows above and below the form. */
export interface CardState {
  /** The active entry, decided by the server's clock (`namecard_active`). */
  active: NamecardRow | null;
  /** The next scheduled entry (`namecard_next`). */
  next: NamecardRow | null;
  /** The changes to come, worked out from every entry that has not ended. */
  changes: Change[];
  /** The last entries, newest first, with their states. */
  history: { row: NamecardRow; state: EntryState }[];
  /** The browser's clock when this was read, epoch ms. */
  readAt: number;
}

export type CardStateResult =
  | { status: 'loading' }
  | { status: 'ready'; card: CardState }
  | { status: 'failed'; message: string };

/** How many entries the history shows. */
export const HISTORY_SIZE = 10;
/** The state is read again at least this often, and at each change it knows of. */
const REFRESH_MS = 60_000;

async function read(): Promise<CardState> {
  const { data } = await supabase.auth.getSession();
  const lookup = { ...siteConfig, accessToken: data.session?.access_token ?? null };
  const now = Date.now();
  const [active, next, recent, open] = await Promise.all([
    fetchActiveEntry(lookup),
    fetchNextEntry(lookup),
    listEntries(supabase, { owner: true, limit: HISTORY_SIZE }),
    listEntries(supabase, { owner: true, endingAfter: now, limit: OPEN_ENTRIES }),
  ]);
  const known = new Map([...recent, ...open].map((row) => [row.id, row]));
  const states = entryStates([...known.values()], now, active?.id ?? null);
  return {
    active,
    next,
    changes: changesAfter(open, now),
    history: recent.map((row) => ({ row, state: states.get(row.id) ?? { state: 'ended' } })),
    readAt: now,
  };
}

async function load(): Promise<CardStateResult> {
  try {
    return { status: 'ready', card: await read() };
  } catch (error) {
    return { status: 'failed', message: errorMessage(error) };
  }
}

/** When to read again: at the next change it knows of (plus a second), at most a minute away. */
function nextReadIn(card: CardState): number {
  const moments = [card.active?.stamp_end, card.next?.stamp_start, card.changes[0]?.at]
    .filter((at): at is number => typeof at === 'number')
    .map((at) => at - Date.now() + 1000);
  return Math.max(1000, Math.min(REFRESH_MS, ...moments));
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
  const [result, setResult] = useState<CardStateResult>({ status: 'loading' });

  const refresh = useCallback(async (): Promise<CardState | undefined> => {
    const next = await load();
    setResult(next);
    return next.status === 'ready' ? next.card : undefined;
  }, []);

  useEffect(() => {
    let live = true;
    const reload = () => void load().then((next) => live && setResult(next));
    reload();
    const onVisible = () => {
      if (document.visibilityState === 'visible') reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  // Each answer schedules the next read: at the next change it knows of, or in a minute.
  useEffect(() => {
    if (result.status === 'loading') return;
    const wait = result.status === 'ready' ? nextReadIn(result.card) : REFRESH_MS;
    const timer = setTimeout(() => void load().then(setResult), wait);
    return () => clearTimeout(timer);
  }, [result]);

  return { result, refresh };
}
