import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { formatWhen, localTimeZone } from '../../../../shared/core/format.js';
import { inPlainWords } from '../../../../shared/core/plain-words.js';
import { PROFILE_OPTIONS, narrowType } from '../../../../shared/core/profiles.js';
import { profileLabel, type NamecardRow } from '../../../../shared/core/types.js';
import { setEntry, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { loadPlan, loadWeekly } from '../later/chunks.js';
import { WeeklyFields } from '../later/parts.js';
import { errorMessage } from '../parts/error-words.js';
import { FORM_FIELD_NAMES, describeAfter } from './describe.js';
import type { CardState } from './useCardState.js';

interface Status {
  tone: 'ok' | 'error';
  text: string;
}

interface SetFormProps {
  /** Reads the card's state again after an insert; resolves to it, `undefined` on failure. */
  refresh: () => Promise<CardState | undefined>;
  /** The server's profiles (not removed, main first); the built-in ones until they are read. */
  profiles?: readonly ProfileEntry[];
}

/**
 * What the user sees after the server stored `row`: the entry, what the plan had to say (a
 * start that had passed: it starts now), then what visitors get.
 */
function describeOutcome(
  row: NamecardRow,
  card: CardState | undefined,
  notice: string | undefined,
  label: string,
): string {
  const zone = localTimeZone();
  const now = card?.status.now ?? Date.now();
  const from = row.stamp_start == null ? '' : ` from ${formatWhen(row.stamp_start, now, zone)}`;
  const saved = `Card set! #${row.id} ${label}${from} until ${formatWhen(row.stamp_end, now, zone)}.`;
  const said = notice ? ` ${inPlainWords(notice, Object.values(FORM_FIELD_NAMES))}.` : '';
  return `${saved}${said} ${describeAfter(card?.status, zone)}`;
}

/**
 * The entry the form's fields ask for, at this moment: the same line as the CLI's `set`, read
 * and planned once by `planEntry` (in the browser's zone, each field in its form, the profile
 * against the card's list).
 */
async function planFromForm(
  field: (name: string) => string,
  startDate: string,
  startTime: string,
  choices: readonly { value: string }[],
) {
  const { planEntry } = await loadPlan();
  return planEntry(
    {
      profile: field('profile'),
      date: field('date'),
      time: field('time'),
      from: startDate ? `${startDate} ${startTime}` : undefined,
      profiles: choices.map((choice) => choice.value),
    },
    Date.now(),
    FORM_FIELD_NAMES,
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The browser's local date and time of an instant, as the date and time inputs take them. */
function localInputs(at: Date): { date: string; time: string } {
  return {
    date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    time: `${pad(at.getHours())}:${pad(at.getMinutes())}`,
  };
}

/** The quick durations beside the form: each gives the end it stands for, in local time. */
const QUICK_ENDS: { label: string; end: (now: Date) => Date }[] = [
  { label: 'for 1 h', end: (now) => new Date(now.getTime() + 3_600_000) },
  { label: 'for 2 h', end: (now) => new Date(now.getTime() + 7_200_000) },
  {
    label: 'until 23:59',
    end: (now) => new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59),
  },
];

/**
 * The set form: profile, date and time (all required, checked by the browser) and an optional
 * start, turned into an entry by `planEntry` (the rules the CLI follows too) in the browser's
 * time zone and stored by the shared `setEntry`, as the CLI's `set` stores it; or, with "Repeat
 * weekly" open (the one-off fields are then not shown, so not applied), a weekly series stored
 * through the same shared call as the CLI's. The outcome, or the refusal, is shown in words;
 * nothing is reported before the server confirmed the row.
 */
export function SetForm({ refresh, profiles }: SetFormProps) {
  const scope = useCardScope();
  const choices = profiles?.map((p) => ({ value: p.name, label: p.label })) ?? PROFILE_OPTIONS;
  const [status, setStatus] = useState<Status | null>(null);
  const [saving, setSaving] = useState(false);
  const [weekly, setWeekly] = useState(false);
  const startRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // Fetched now, used on submit; a failure to load shows then, as the form's refusal.
    loadPlan().catch(() => undefined);
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const field = (name: string) => String(fields.get(name) ?? '').trim();
    const labelOf = (type: string) =>
      choices.find((c) => c.value === type)?.label ?? profileLabel(narrowType(type));
    const what = weekly ? 'The series was not set' : 'The card was not set';
    const names = weekly
      ? (await loadWeekly()).WEEKLY_FIELD_NAMES
      : Object.values(FORM_FIELD_NAMES);
    const refuse = (error: unknown) =>
      setStatus({ tone: 'error', text: `${what}: ${errorMessage(error, names)}` });
    let store: () => Promise<string>;
    try {
      if (weekly) {
        const { seriesFromForm, storeSeries } = await loadWeekly();
        const series = seriesFromForm(field, fields.getAll('weekday').map(String));
        store = () => storeSeries(series, labelOf(series.type), refresh, scope.slug);
      } else {
        // Only an open "Start later" counts (closing it also empties it).
        const startOpen = startRef.current?.open ?? false;
        const startDate = startOpen ? field('start-date') : '';
        const startTime = startOpen ? field('start-time') : '';
        if (Boolean(startDate) !== Boolean(startTime)) {
          throw new Error(
            'The start needs both a day and an hour, or neither (then it starts now).',
          );
        }
        const plan = await planFromForm(field, startDate, startTime, choices);
        store = async () => {
          const { entry: row } = await setEntry(supabase, plan, scope.slug);
          // Set: the start it had is used up; the next set starts from an empty, closed one.
          if (startRef.current) startRef.current.open = false;
          return describeOutcome(row, await refresh(), plan.notice, labelOf(row.type));
        };
      }
    } catch (error) {
      refuse(error);
      return;
    }
    setSaving(true);
    try {
      setStatus({ tone: 'ok', text: await store() });
    } catch (error) {
      refuse(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card-form" onSubmit={(event) => void handleSubmit(event)}>
      <label>
        Profile
        {/* The spec's placeholder, shown as a prompt (muted, with the hint under it), so that
            it does not read as the page still loading. */}
        <select name="profile" required defaultValue="" aria-describedby="profile-hint">
          <option value="" disabled>
            Selecting profile..
          </option>
          {choices.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <p id="profile-hint" className="muted small field-hint">
        Choose where the card sends visitors: one of your profiles.
      </p>
      <details className="repeat-weekly" onToggle={(event) => setWeekly(event.currentTarget.open)}>
        <summary>Repeat weekly</summary>
        {weekly && <WeeklyFields />}
      </details>
      {!weekly && <OneOffFields startRef={startRef} />}
      <button type="submit" className="button" disabled={saving}>
        Set the card!
      </button>
      <p role="status" className={`status${status ? ` ${status.tone}` : ''}`}>
        {status?.text}
      </p>
    </form>
  );
}

/**
 * The one-off entry's fields: date and time of the end (with quick durations) and the optional
 * "Start later", empty when closed: what is applied is what is shown.
 */
function OneOffFields({ startRef }: { startRef: RefObject<HTMLDetailsElement | null> }) {
  const dateRef = useRef<HTMLInputElement>(null);
  const timeRef = useRef<HTMLInputElement>(null);
  const startDateRef = useRef<HTMLInputElement>(null);
  const startTimeRef = useRef<HTMLInputElement>(null);

  /** Empties the optional start: what is applied is what is shown, so a closed one holds nothing. */
  function clearStart() {
    if (startDateRef.current) startDateRef.current.value = '';
    if (startTimeRef.current) startTimeRef.current.value = '';
  }

  /** Fills the date and time inputs with a quick duration's end (the browser's local time). */
  function fillEnd(end: Date) {
    const { date, time } = localInputs(end);
    if (dateRef.current) dateRef.current.value = date;
    if (timeRef.current) timeRef.current.value = time;
  }

  return (
    <>
      <div className="row">
        <label>
          Date
          <input type="date" name="date" required ref={dateRef} />
        </label>
        <label>
          Time
          <input type="time" name="time" required ref={timeRef} />
        </label>
      </div>
      <div className="quick" role="group" aria-label="Quick end">
        {QUICK_ENDS.map(({ label, end }) => (
          <button
            key={label}
            type="button"
            className="button secondary small-button"
            onClick={() => fillEnd(end(new Date()))}
          >
            {label}
          </button>
        ))}
      </div>
      <details
        className="optional"
        ref={startRef}
        onToggle={(event) => {
          if (!event.currentTarget.open) clearStart();
        }}
      >
        <summary>Start later (optional: empty means now)</summary>
        <div className="row">
          <label>
            Start day
            <input type="date" name="start-date" ref={startDateRef} />
          </label>
          <label>
            Start hour
            <input type="time" name="start-time" ref={startTimeRef} />
          </label>
        </div>
      </details>
    </>
  );
}
