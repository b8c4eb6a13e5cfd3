import { localTimeZone } from '../../../../shared/core/format.js';
import { WEEKDAY_NAMES } from '../../../../shared/core/series.js';

const DAY_WORDS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * The fields of "Repeat weekly": the days (real checkboxes in a fieldset), a local start and
 * end time and optional first and last dates, all in the browser's time zone. Shown only while
 * "Repeat weekly" is open, so a closed one adds nothing to the form.
 */
export function WeeklyFields() {
  return (
    <div className="weekly" data-testid="weekly-fields">
      <fieldset className="weekdays">
        <legend>Days</legend>
        {WEEKDAY_NAMES.map((name, i) => (
          <label key={name} className="weekday">
            <input type="checkbox" name="weekday" value={i + 1} aria-label={DAY_WORDS[i]} />
            <span aria-hidden="true">{name[0]!.toUpperCase() + name.slice(1)}</span>
          </label>
        ))}
      </fieldset>
      <div className="row">
        <label>
          From
          <input type="time" name="series-start" required />
        </label>
        <label>
          Until
          <input type="time" name="series-end" required />
        </label>
      </div>
      <div className="row">
        <label>
          First day (optional)
          <input type="date" name="series-first" />
        </label>
        <label>
          Last day (optional)
          <input type="date" name="series-last" />
        </label>
      </div>
      <p className="muted small">
        Times in {localTimeZone()}; an end at or before the start runs past midnight.
      </p>
    </div>
  );
}
