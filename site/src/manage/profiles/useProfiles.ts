import { listProfiles, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { supabase } from '../../supabase.js';
import type { CardScope } from '../card/card-scope.js';
import { useLoad, type Loaded } from '../parts/useLoad.js';

/** The card's profiles as /manage reads them: loading, the rows, or why they could not be read. */
export type ProfilesState = Loaded<ProfileEntry[]>;

/**
 * Reads the card's profiles (its members may; not removed, main first) once, and again on
 * `reload()` after a change; the set form's choices and the Profiles section share it.
 */
export function useProfiles(scope: CardScope): ProfilesState & { reload: () => Promise<unknown> } {
  return useLoad(() => listProfiles(supabase, { card: scope.slug }), [scope]);
}
