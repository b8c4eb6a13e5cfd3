import type { CardStatus } from '../../shared/core/lookup.js';
import type { ProfileLabels } from '../../shared/core/profiles.js';
import type { CliConfig } from '../session/settings.js';
import type { OwnerWriter } from '../session/writer.js';

// The labels a write's output names its profiles by: the answer's own (the profiles its
// timeline names), completed by one read of the profile table when a profile the output names
// is missing (an entry just ended or cancelled, a series whose occurrences are further off).

/**
 * `status` with its `labels` completed for `types` (shared/supabase/data.ts's completeLabels);
 * the status as it was when the read fails (the write is done: the output still names the
 * profile by its name).
 *
 * @param owner the writer the command wrote with
 * @param status the status the write answered
 * @param types the profiles the output names
 */
export async function withLabels(
  owner: OwnerWriter,
  status: CardStatus,
  types: readonly string[],
): Promise<CardStatus> {
  const { completeLabels, labelsToRead } = await import('../../shared/supabase/data.js');
  if (labelsToRead(types, status.labels).length === 0) return status;
  try {
    const labels = await owner.run(({ client, transport }) =>
      transport.guard(() => completeLabels(client, types, status.labels)),
    );
    return { ...status, labels };
  } catch {
    return status;
  }
}

/**
 * `labels` (what a read anyone may make answered: the status's) completed from the profile
 * table when the owner is signed in here and a profile the output names is missing (a series
 * whose occurrences lie beyond the status's timeline, an instant `preview` asks about); a
 * failed or refused read leaves them as they were (the name is shown then). For commands that
 * work signed out (`calendar`, `preview`).
 *
 * @param config the settings of this run
 * @param labels the labels already known
 * @param types the profiles the output names
 */
export async function signedInLabels(
  config: CliConfig,
  labels: ProfileLabels,
  types: readonly string[],
): Promise<ProfileLabels> {
  const { completeLabels, labelsToRead } = await import('../../shared/supabase/data.js');
  if (labelsToRead(types, labels).length === 0) return labels;
  try {
    const { findOwner } = await import('../session/session.js');
    const owner = await findOwner(config);
    if (!owner) return labels;
    return await owner.transport.guard(() => completeLabels(owner.client, types, labels));
  } catch {
    return labels;
  }
}
