import { useState, type FormEvent } from 'react';
import {
  MAIN_PROFILE,
  checkDestination,
  checkProfileLabel,
} from '../../../../shared/core/profiles.js';
import type { InUse } from '../../../../shared/core/profile-words.js';
import { editProfile, removeProfile, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { siteConfig } from '../../site-config.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { AskFirst } from '../parts/AskFirst.js';
import type { Question } from '../parts/question.js';
import { errorMessage } from '../parts/error-words.js';
import { useChange } from '../parts/useChange.js';
import {
  BUILD_TARGETS,
  destination,
  firstProblem,
  removeRefusal,
  type Said,
} from './profile-words.js';

/**
 * One profile of the list: its label, name and destination, Edit (the form in place of the
 * buttons) and Remove, which asks first. What the server answered, or refused, is said here,
 * next to the buttons: a profile in use names the entries and series in the way, each with a
 * button that shows its Cancel.
 *
 * @param onRemoved told the words of a removal that went through (the line is then gone)
 */
export function ProfileItem({
  profile,
  reload,
  onRemoved,
}: {
  profile: ProfileEntry;
  reload: () => Promise<unknown>;
  onRemoved: (text: string) => void;
}) {
  const scope = useCardScope();
  const [editing, setEditing] = useState(false);
  const change = useChange<Said>();

  function submitEdit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const label = String(fields.get('label') ?? '').trim();
    const url = String(fields.get('url') ?? '').trim();
    const problem = firstProblem([
      [checkProfileLabel(label), 'Label'],
      [url ? checkDestination(url, siteConfig.allowedOrigins) : null, 'Destination'],
    ]);
    if (problem) return change.say({ tone: 'error', text: `Not changed: ${problem}` });
    void change.run(async () => {
      // An empty destination for main or photo: follow this site's setting again.
      const edit = { label, url: url || null };
      const row = await editProfile(supabase, profile.name, edit, scope.slug);
      setEditing(false);
      await reload();
      return `Changed ${row.label} (${row.name}): ${destination(row)}.`;
    }, 'Not changed');
  }

  const remove = () =>
    change.run(
      async () => {
        const row = await removeProfile(supabase, profile.name, scope.slug);
        onRemoved(
          `Removed ${row.label} (${row.name}): no new entry can name it; past entries keep it.`,
        );
        await reload();
      },
      (error) => {
        const refusal = removeRefusal(error, profile);
        if (refusal && !refusal.inUse) void reload();
        return refusal ?? { tone: 'error', text: `Not removed: ${errorMessage(error)}` };
      },
    );

  return (
    <li data-testid={`profile-${profile.name}`}>
      <p>
        <strong>{profile.label}</strong> <code>{profile.name}</code>
        <br />
        <span className="muted small">{destination(profile)}</span>
      </p>
      {editing ? (
        <EditProfileForm
          profile={profile}
          busy={change.busy}
          onSubmit={submitEdit}
          onClose={() => setEditing(false)}
        />
      ) : (
        <div className="actions profile-actions">
          <button
            type="button"
            className="button secondary small-button"
            onClick={() => setEditing(true)}
          >
            Edit {profile.label}
          </button>
          {profile.name !== MAIN_PROFILE.type && (
            <AskFirst
              label={`Remove ${profile.label}`}
              busy={change.busy}
              question={() => removeQuestion(profile)}
              onConfirm={() => void remove()}
            />
          )}
        </div>
      )}
      {change.outcome && <SaidHere said={change.outcome} />}
    </li>
  );
}

/** The question before a profile is removed: what that means, and what must go first. */
function removeQuestion(profile: ProfileEntry): Question {
  return {
    heading: `Remove ${profile.label}?`,
    confirm: 'Yes, remove it',
    text: `${profile.label} (${profile.name}) will no longer be offered: no new entry or series can name it. Past entries keep it. One that names it now or later must be cancelled first.`,
  };
}

/**
 * The outcome of a change, under the profile's buttons: a refusal as an alert, with a button
 * per entry or series in the way that shows its Cancel (in the timeline's list, or the weekly
 * series).
 */
function SaidHere({ said }: { said: Said }) {
  if (said.tone === 'ok') {
    return (
      <p role="status" className="status ok">
        {said.text}
      </p>
    );
  }
  return (
    <div role="alert" className="status error profile-refusal">
      <p>{said.text}</p>
      {said.inUse && <InUseButtons inUse={said.inUse} />}
    </div>
  );
}

/** Buttons that bring each entry's or series' Cancel into view and give it the focus. */
function InUseButtons({ inUse }: { inUse: InUse }) {
  const targets = [
    ...inUse.entries.map((id) => ({ id, name: `Cancel entry #${id}`, what: `entry #${id}` })),
    ...inUse.series.map((id) => ({ id, name: `Cancel series #${id}`, what: `series #${id}` })),
  ];
  const show = (name: string) => {
    const button = document.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`);
    button?.scrollIntoView({ block: 'center' });
    button?.focus();
  };
  return (
    <div className="actions in-use">
      {targets.map((t) => (
        <button
          key={t.name}
          type="button"
          className="button secondary small-button"
          onClick={() => show(t.name)}
        >
          Show {t.what}
        </button>
      ))}
    </div>
  );
}

/** The form that edits one profile's label and destination, in place of its buttons. */
function EditProfileForm({
  profile,
  busy,
  onSubmit,
  onClose,
}: {
  profile: ProfileEntry;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
}) {
  return (
    <form className="card-form" aria-label={`Edit ${profile.label}`} onSubmit={onSubmit}>
      <label>
        Label
        <input name="label" defaultValue={profile.label} required maxLength={60} />
      </label>
      <label>
        Destination
        <input
          name="url"
          type="url"
          defaultValue={profile.url ?? ''}
          // Main and photo may be emptied: they then follow this site's settings.
          required={!(profile.name in BUILD_TARGETS)}
        />
      </label>
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          Save {profile.label}
        </button>
        <button type="button" className="button secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
