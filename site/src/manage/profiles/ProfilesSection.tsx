import { useState, type FormEvent } from 'react';
import {
  checkDestination,
  checkProfileLabel,
  checkProfileName,
} from '../../../../shared/core/profiles.js';
import { addProfile, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { siteConfig } from '../../site-config.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import { ListSection } from '../parts/ListSection.js';
import { useChange } from '../parts/useChange.js';
import { ProfileItem } from './ProfileItem.js';
import { addRefusal, firstProblem, type Said } from './profile-words.js';
import type { ProfilesState } from './useProfiles.js';

/**
 * The Profiles section: each profile with its label and destination, Edit, and Remove (which
 * asks first; main, where visitors go when nothing else is set, has none), and a form to add
 * one. What the form refuses (name, label and URL forms, an origin the card's /go does not
 * follow) is said before anything is sent; the server's refusals (a name taken, in use, with
 * the ids and the buttons that clear them) are said next to the control that was used; the
 * list is read again after every change.
 */
export function ProfilesSection({
  state,
  reload,
}: {
  state: ProfilesState;
  reload: () => Promise<unknown>;
}) {
  // A removal's outcome: its profile's line is gone, so it is said where the line was.
  const [removed, setRemoved] = useState('');
  const profiles = state.state === 'ready' ? state.data : [];
  return (
    <ListSection
      name="profiles"
      heading="Profiles"
      unnamed
      loaded={state}
      words={{ what: 'the profiles' }}
      listClass="profile-list"
      item={(profile) => (
        <ProfileItem key={profile.name} profile={profile} reload={reload} onRemoved={setRemoved} />
      )}
      outcome={removed ? { tone: 'ok', text: removed } : null}
      outcomeTestId="profiles-outcome"
    >
      <AddProfileForm profiles={profiles} reload={reload} />
    </ListSection>
  );
}

/**
 * The form that adds a profile: name, optional label (the name by default), destination; its
 * outcome, or why it was refused (a name the card has: what it is, and Edit), under its button.
 */
function AddProfileForm({
  profiles,
  reload,
}: {
  profiles: readonly ProfileEntry[];
  reload: () => Promise<unknown>;
}) {
  const scope = useCardScope();
  const change = useChange<Said>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const name = String(fields.get('name') ?? '').trim();
    const url = String(fields.get('url') ?? '').trim();
    const label = String(fields.get('label') ?? '').trim() || name;
    const problem = firstProblem([
      [checkProfileName(name), 'Name'],
      [checkProfileLabel(label), 'Label'],
      [checkDestination(url, siteConfig.allowedOrigins), 'Destination'],
    ]);
    if (problem) return change.say({ tone: 'error', text: `Not added: ${problem}` });
    void change.run(
      async () => {
        const row = await addProfile(supabase, { name, label, url }, scope.slug);
        form.reset();
        await reload();
        return `Added ${row.label} (${row.name}): ${row.url ?? ''}.`;
      },
      (error) => ({
        tone: 'error',
        text: `Not added: ${addRefusal(error, name, profiles) ?? errorMessage(error)}`,
      }),
    );
  }

  return (
    <form className="card-form" onSubmit={submit} aria-label="Add a destination">
      <div className="row">
        <label>
          Name
          <input name="name" required maxLength={32} placeholder="shop" />
        </label>
        <label>
          Label
          <input name="label" maxLength={60} placeholder="Shop" />
        </label>
      </div>
      <label>
        Destination
        <input name="url" type="url" required placeholder={`${siteConfig.mainUrl}shop`} />
      </label>
      <button type="submit" className="button" disabled={change.busy}>
        Add the profile
      </button>
      <p role="status" className={`status${change.outcome ? ` ${change.outcome.tone}` : ''}`}>
        {change.outcome?.text}
      </p>
    </form>
  );
}
