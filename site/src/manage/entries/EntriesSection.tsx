import { useState } from 'react';
import { localTimeZone, zoneHeader } from '../../../../shared/core/format.js';
import { may, useCardScope } from '../card/card-scope.js';
import { History, SeriesSection } from '../later/parts.js';
import type { ProfilesState } from '../profiles/useProfiles.js';
import { SetForm } from './SetForm.js';
import { Timeline } from './Timeline.js';
import { useCardState } from './useCardState.js';
import './timeline.css';

/**
 * The card's entries: the zone line, the timeline, the set form, the weekly series and the
 * history. An editor or owner gets the form and the changes; a viewer the card as it is. On a
 * wide screen the timeline and the form stand side by side (manage.css).
 *
 * @param profiles the card's profiles as read (the form's choices, and their labels)
 */
export function EntriesSection({ profiles }: { profiles: ProfilesState }) {
  const scope = useCardScope();
  const { result, refresh } = useCardState(scope);
  const [shownAt] = useState(() => Date.now());
  const at = result.state === 'ready' ? result.data.status.now : shownAt;
  const rows = profiles.state === 'ready' ? profiles.data : undefined;
  return (
    <div className="owner-view">
      <p className="muted small zone-header" data-testid="zone-header">
        {zoneHeader(localTimeZone(), at)}
      </p>
      <Timeline result={result} refresh={refresh} profiles={rows} />
      {may(scope, 'editor') ? (
        <SetForm refresh={refresh} profiles={rows} />
      ) : (
        <p className="muted small" data-testid="read-only">
          You are a viewer of this card: you see it, and change nothing.
        </p>
      )}
      {result.state === 'ready' && (
        <SeriesSection card={result.data} profiles={rows} refresh={refresh} />
      )}
      <History result={result} profiles={rows} />
    </div>
  );
}
