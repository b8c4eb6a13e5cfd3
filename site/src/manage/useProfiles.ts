import { useCallback, useEffect, useState } from 'react';
import { listProfiles, type ProfileEntry } from '../../../shared/supabase/data.js';
import { supabase } from '../supabase.js';
import { errorMessage } from './describe.js';

/** The card's profiles as /manage reads them: loading, the rows, or why they could not be read. */
export type ProfilesState =
  | { status: 'loading' }
  | { status: 'ready'; profiles: ProfileEntry[] }
  | { status: 'error'; message: string };

/**
 * Reads the card's profiles (owners only, not removed, main first) once, and again on
 * `reload()` after a change; the set form's choices and the Profiles section share it.
 */
export function useProfiles(): { state: ProfilesState; reload: () => Promise<void> } {
  const [state, setState] = useState<ProfilesState>({ status: 'loading' });
  const reload = useCallback(async () => {
    try {
      setState({ status: 'ready', profiles: await listProfiles(supabase) });
    } catch (error) {
      setState({ status: 'error', message: errorMessage(error) });
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { state, reload };
}
