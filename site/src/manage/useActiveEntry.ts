import { useCallback, useEffect, useState } from 'react';
import { readActiveEntry } from '../../../shared/supabase/data.js';
import type { NamecardRow } from '../../../shared/core/types.js';
import { supabase } from '../supabase.js';
import { errorMessage } from './describe.js';

export type ActiveEntryState =
  | { status: 'loading' }
  | { status: 'ready'; entry: NamecardRow | null }
  | { status: 'failed'; message: string };

async function load(): Promise<ActiveEntryState> {
  try {
    return { status: 'ready', entry: await readActiveEntry(supabase, Date.now()) };
  } catch (error) {
    return { status: 'failed', message: errorMessage(error) };
  }
}

/**
 * The active entry, read through the shared module at mount, and a `refresh` that reads it
 * again and resolves to it (`undefined` when the read failed).
 */
export function useActiveEntry(): {
  state: ActiveEntryState;
  refresh: () => Promise<NamecardRow | null | undefined>;
} {
  const [state, setState] = useState<ActiveEntryState>({ status: 'loading' });
  useEffect(() => {
    let mounted = true;
    void load().then((next) => mounted && setState(next));
    return () => {
      mounted = false;
    };
  }, []);
  const refresh = useCallback(async () => {
    const next = await load();
    setState(next);
    return next.status === 'ready' ? next.entry : undefined;
  }, []);
  return { state, refresh };
}
