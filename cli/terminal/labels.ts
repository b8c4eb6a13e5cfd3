import type { CardStatus } from '../../shared/core/lookup.js';
import type { ProfileLabels } from '../../shared/core/profiles.js';
import type { RunCaller } from '../session/caller.js';

// The labels a write's output names its profiles by: the answer's own (the profiles its
// timeline names), completed by one read of the profile table when a profile the output names
// is missing (an entry just ended or cancelled, a series whose occurrences are further off).

/**
 * `status` with its `labels` completed for `types` (shared/supabase/data.ts's completeLabels);
 * the status as it was when the read fails (the write is done: the output still names the
 * profile by its name).
 *
 * @param caller the caller the command wrote as
 * @param status the status the write answered
 * @param types the profiles the output names
 * @param card the card's slug
 */
export async function withLabels(
  caller: RunCaller,
  status: CardStatus,
  types: readonly string[],
  card: string,
): Promise<CardStatus> {
  const { completeLabels, labelsToRead } = await import('../../shared/supabase/data.js');
  if (labelsToRead(types, status.labels).length === 0) return status;
  try {
    const labels = await caller.run(({ client, transport }) =>
      transport.guard(() => completeLabels(client, types, status.labels, card)),
    );
    return { ...status, labels };
  } catch {
    return status;
  }
}

/**
 * `labels` (what a read anyone may make answered: the status's) completed from the profile
 * table when the run has a caller and a profile the output names is missing (a series whose
 * occurrences lie beyond the status's timeline, an instant `preview` asks about); a failed or
 * refused read leaves them as they were (the name is shown then). For commands that work
 * signed out (`calendar`, `preview`).
 *
 * @param caller the run's caller; none: signed out, the labels as they are
 * @param labels the labels already known
 * @param types the profiles the output names
 * @param card the card's slug
 */
export async function signedInLabels(
  caller: RunCaller | undefined,
  labels: ProfileLabels,
  types: readonly string[],
  card: string,
): Promise<ProfileLabels> {
  const { completeLabels, labelsToRead } = await import('../../shared/supabase/data.js');
  if (caller === undefined || labelsToRead(types, labels).length === 0) return labels;
  try {
    return await caller.run(({ client, transport }) =>
      transport.guard(() => completeLabels(client, types, labels, card)),
    );
  } catch {
    return labels;
  }
}
