import { useState, type FormEvent } from 'react';
import { planEntry, type EntryFieldNames } from '../../../shared/calendar/plan.js';
import { describeChanges } from '../../../shared/core/describe.js';
import { formatStamp, localTimeZone } from '../../../shared/core/format.js';
import { PROFILE_OPTIONS } from '../../../shared/core/profiles.js';
import { profileLabel, type NamecardRow } from '../../../shared/core/types.js';
import { insertEntry } from '../../../shared/supabase/data.js';
import { supabase } from '../supabase.js';
import { describeActive, errorMessage } from './describe.js';
import type { CardState } from './useCardState.js';

interface Status {
  tone: 'ok' | 'error';
  text: string;
}

interface CardFormProps {
  /** Reads the card's state again after an insert; resolves to it, `undefined` on failure. */
  refresh: () => Promise<CardState | undefined>;
}

/** The form's fields as messages name them, so that a refusal points at what to change. */
const FIELD_NAMES: EntryFieldNames = {
  profile: 'Profile',
  date: 'Date',
  time: 'Time',
  from: 'Start',
  for: 'Duration',
  timeZone: 'time zone',
};

/** What the owner sees after the server stored `row`: the entry, what visitors get, what follows. */
function describeOutcome(row: NamecardRow, card: CardState | undefined): string {
  const zone = localTimeZone();
  const from = row.stamp_start == null ? '' : ` from ${formatStamp(row.stamp_start, zone)}`;
  const saved = `Card set! ${profileLabel(row.type)}${from} until ${formatStamp(row.stamp_end, zone)}.`;
  if (!card) return `${saved} (The current state could not be read again.)`;
  const following = describeChanges(card.changes, card.active, card.readAt, zone);
  return [saved, describeActive(card.active), ...following.map((s) => `${s}.`)].join(' ');
}

/**
 * The manage form: profile, date and time (all required, checked by the browser) and an
 * optional start, turned into an entry by `planEntry` (the rules the CLI follows too) in the
 * browser's time zone and inserted through the shared module. The outcome, or the refusal, is
 * shown in words; nothing is reported before the server confirmed the row.
 */
export function CardForm({ refresh }: CardFormProps) {
  const [status, setStatus] = useState<Status | null>(null);
  const [saving, setSaving] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const field = (name: string) => String(fields.get(name) ?? '').trim();
    const startDate = field('start-date');
    const startTime = field('start-time');
    let plan;
    try {
      if (Boolean(startDate) !== Boolean(startTime)) {
        throw new Error('The start needs both a day and an hour, or neither (then it starts now).');
      }
      plan = planEntry(
        {
          profile: field('profile'),
          date: field('date'),
          time: field('time'),
          from: startDate ? `${startDate} ${startTime}` : undefined,
        },
        Date.now(),
        FIELD_NAMES,
      );
    } catch (error) {
      setStatus({ tone: 'error', text: `The card was not set: ${errorMessage(error)}` });
      return;
    }
    setSaving(true);
    try {
      const row = await insertEntry(supabase, plan);
      setStatus({ tone: 'ok', text: describeOutcome(row, await refresh()) });
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
          {PROFILE_OPTIONS.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
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
      <fieldset className="optional">
        <legend>Start (optional: empty means now)</legend>
        <div className="row">
          <label>
            Start day
            <input type="date" name="start-date" />
          </label>
          <label>
            Start hour
            <input type="time" name="start-time" />
          </label>
        </div>
      </fieldset>
      <p className="muted small">Dates and times in your time zone, {localTimeZone()}.</p>
      <button type="submit" className="button" disabled={saving}>
        Set the card!
      </button>
      <p role="status" className={`status${status ? ` ${status.tone}` : ''}`}>
        {status?.text}
      </p>
    </form>
  );
}
