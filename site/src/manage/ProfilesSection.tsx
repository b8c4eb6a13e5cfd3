import { useState, type FormEvent } from 'react';
import {
  MAIN_PROFILE,
  checkDestination,
  checkProfileLabel,
  checkProfileName,
  type ProfileFieldProblem,
} from '../../../shared/core/profiles.js';
import { resolveTargets } from '../../../shared/core/rules.js';
import {
  addProfile,
  editProfile,
  removeProfile,
  type ProfileEntry,
} from '../../../shared/supabase/data.js';
import { siteConfig } from '../site-config.js';
import { supabase } from '../supabase.js';
import { errorMessage } from './describe.js';
import type { ProfilesState } from './useProfiles.js';

interface Outcome {
  tone: 'ok' | 'error';
  text: string;
}

/** The build's own targets, for main and photo while they have no URL of their own. */
const BUILD_TARGETS: Record<string, string> = resolveTargets(siteConfig);

/** Where a profile sends visitors, in words for the list. */
function destination(profile: ProfileEntry): string {
  if (profile.url !== null) return profile.url;
  return `${BUILD_TARGETS[profile.name] ?? siteConfig.mainUrl} (this site's setting)`;
}

/** A field problem in the form's words: the field's label, what it must be, and what to do. */
function say(problem: ProfileFieldProblem, label: string): string {
  const text = problem.message.replace(`\`${problem.field}\``, label);
  return problem.hint ? `${text}: ${problem.hint}.` : `${text}.`;
}

/** Runs the checks in order; the first problem, in words, or null. */
function firstProblem(checks: [ProfileFieldProblem | null, string][]): string | null {
  for (const [problem, label] of checks) if (problem) return say(problem, label);
  return null;
}

/**
 * The Profiles section: each profile with its label and destination, a form to add one, and
 * per profile Edit and Remove (main, where visitors go when nothing else is set, has no Remove). What the form refuses (name, label and URL forms, an origin the
 * card's /go does not follow) is said before anything is sent; the server's refusals (in use,
 * main) are shown in its words; the list is read again after every change.
 */
export function ProfilesSection({
  state,
  reload,
}: {
  state: ProfilesState;
  reload: () => Promise<unknown>;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(work: () => Promise<string>) {
    setBusy(true);
    try {
      const text = await work();
      setOutcome({ tone: 'ok', text });
      setEditing(null);
      await reload();
    } catch (error) {
      setOutcome({ tone: 'error', text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  function submitAdd(event: FormEvent<HTMLFormElement>) {
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
    if (problem) return setOutcome({ tone: 'error', text: `Not added: ${problem}` });
    void act(async () => {
      const row = await addProfile(supabase, { name, label, url });
      form.reset();
      return `Added ${row.label} (${row.name}): ${row.url ?? ''}.`;
    });
  }

  function submitEdit(event: FormEvent<HTMLFormElement>, profile: ProfileEntry) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const label = String(fields.get('label') ?? '').trim();
    const url = String(fields.get('url') ?? '').trim();
    const problem = firstProblem([
      [checkProfileLabel(label), 'Label'],
      [url ? checkDestination(url, siteConfig.allowedOrigins) : null, 'Destination'],
    ]);
    if (problem) return setOutcome({ tone: 'error', text: `Not changed: ${problem}` });
    void act(async () => {
      // An empty destination for main or photo: follow this site's setting again.
      const row = await editProfile(supabase, profile.name, { label, url: url || null });
      return `Changed ${row.label} (${row.name}): ${destination(row)}.`;
    });
  }

  return (
    <section className="card profiles">
      <h2>Profiles</h2>
      {state.state === 'loading' && <p className="muted">Reading the profiles…</p>}
      {state.state === 'error' && (
        <p className="status error" role="alert">
          Could not read the profiles: {state.error}
        </p>
      )}
      {state.state === 'ready' && (
        <ul className="profile-list">
          {state.data.map((profile) => (
            <li key={profile.name}>
              <p>
                <strong>{profile.label}</strong> <code>{profile.name}</code>
                <br />
                <span className="muted small">{destination(profile)}</span>
              </p>
              {editing === profile.name ? (
                <EditProfileForm
                  profile={profile}
                  busy={busy}
                  onSubmit={(event) => submitEdit(event, profile)}
                  onClose={() => setEditing(null)}
                />
              ) : (
                <ProfileActions
                  profile={profile}
                  busy={busy}
                  onEdit={() => setEditing(profile.name)}
                  onRemove={() =>
                    void act(async () => {
                      const row = await removeProfile(supabase, profile.name);
                      return `Removed ${row.label} (${row.name}): no new entry can name it; past entries keep it.`;
                    })
                  }
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <AddProfileForm busy={busy} onSubmit={submitAdd} />
      <p role="status" className={`status${outcome ? ` ${outcome.tone}` : ''}`}>
        {outcome?.text}
      </p>
    </section>
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

/** A profile's Edit and Remove buttons (main, where visitors go when nothing is set, has no Remove). */
function ProfileActions({
  profile,
  busy,
  onEdit,
  onRemove,
}: {
  profile: ProfileEntry;
  busy: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <div className="actions">
      <button type="button" className="button secondary small-button" onClick={onEdit}>
        Edit {profile.label}
      </button>
      {profile.name !== MAIN_PROFILE.type && (
        <button
          type="button"
          className="button secondary small-button"
          disabled={busy}
          onClick={onRemove}
        >
          Remove {profile.label}
        </button>
      )}
    </div>
  );
}

/** The form that adds a profile: name, optional label (the name by default), destination. */
function AddProfileForm({
  busy,
  onSubmit,
}: {
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form className="card-form" onSubmit={onSubmit} aria-label="Add a destination">
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
      <button type="submit" className="button" disabled={busy}>
        Add the profile
      </button>
    </form>
  );
}
