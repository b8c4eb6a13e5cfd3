import type { CardStatus } from '../../shared/core/lookup.js';
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
