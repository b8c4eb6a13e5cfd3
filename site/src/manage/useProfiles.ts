import { useCallback, useEffect, useState } from 'react';
import { listProfiles, type ProfileEntry } from '../../../shared/supabase/data.js';
import { supabase } from '../supabase.js';
import { errorMessage } from './describe.js';

/** The card's profiles as /manage reads them: loading, the rows, or why they could not be read. */
export type ProfilesState =
  | { status: 'loading' }
  | { status: 'ready'; profiles: ProfileEntry[] }
  | { status: 'error'; message: string };

/** One read of the profiles, as a state (never throws). */
async function load(): Promise<ProfilesState> {
  try {
    return { status: 'ready', profiles: await listProfiles(supabase) };
  } catch (error) {
    return { status: 'error', message: errorMessage(error) };
  }
}

/**
 * Reads the card's profiles (owners only, not removed, main first) once, and again on
 * `reload()` after a change; the set form's choices and the Profiles section share it.
 */
export function useProfiles(): { state: ProfilesState; reload: () => Promise<void> } {
  const [state, setState] = useState<ProfilesState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    void load().then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, []);
  const reload = useCallback(async () => setState(await load()), []);
  return { state, reload };
}
