import { useState, type FormEvent } from 'react';
import { insertEntry } from '../../../shared/supabase/data.js';
import { localTimeZone, toStampEnd } from '../../../shared/calendar/time.js';
import {
  PROFILE_LABELS,
  PROFILE_TYPES,
  isProfileType,
  type NamecardRow,
} from '../../../shared/core/types.js';
import { supabase } from '../supabase.js';
import { describeOutcome, errorMessage } from './describe.js';

interface Status {
  tone: 'ok' | 'error';
  text: string;
}

interface CardFormProps {
  /** Reads the active entry again after an insert; resolves to it, `undefined` on failure. */
  refreshActive: () => Promise<NamecardRow | null | undefined>;
}

/**
 * The manage form: profile, date and time (all required, checked by the browser), turned
 * into `stamp_end` in the browser's time zone and inserted through the shared module. Unlike
 * the specified original, the outcome is shown in a status line.
 */
export function CardForm({ refreshActive }: CardFormProps) {
  const [status, setStatus] = useState<Status | null>(null);
  const [saving, setSaving] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const profile = String(fields.get('profile') ?? '');
    const date = String(fields.get('date') ?? '');
    const time = String(fields.get('time') ?? '');
    if (!isProfileType(profile)) {
      setStatus({ tone: 'error', text: '`profile` must be main or photo' });
      return;
    }
    setSaving(true);
    try {
      const row = await insertEntry(supabase, {
        type: profile,
        stamp_end: toStampEnd(date, time, localTimeZone()),
      });
      const active = await refreshActive();
      setStatus({ tone: 'ok', text: describeOutcome(row, active, Date.now()) });
    } catch (error) {
      setStatus({ tone: 'error', text: `The card was not set: ${errorMessage(error)}` });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card-form" onSubmit={(event) => void handleSubmit(event)}>
      <label>
        Profile
        <select name="profile" required defaultValue="">
          <option value="" disabled>
            Selecting profile..
          </option>
          {PROFILE_TYPES.map((type) => (
            <option key={type} value={type}>
              {PROFILE_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <label>
          Date
          <input type="date" name="date" required />
        </label>
        <label>
          Time
          <input type="time" name="time" required />
        </label>
      </div>
      <p className="muted small">Until this date and time in your time zone, {localTimeZone()}.</p>
      <button type="submit" className="button" disabled={saving}>
        Set the card!
      </button>
      <p role="status" className={`status${status ? ` ${status.tone}` : ''}`}>
        {status?.text}
      </p>
    </form>
  );
}
