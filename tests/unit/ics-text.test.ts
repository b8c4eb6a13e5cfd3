import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarFile } from '../../shared/calendar/ics.js';
import { narrowType } from '../../shared/core/profiles.js';

// The calendar file's TEXT values (SUMMARY, DESCRIPTION) hold only what RFC 5545 section 3.3.11
// allows: a label the server answers with control characters (ESC, C1, NUL) is written without
// them, its line breaks as `\n`, and the file still parses.

const NOW = Date.parse('2030-06-01T10:00:00Z');

/** A calendar of one entry of profile `shop` whose label is `label`. */
const withLabel = (label: string) =>
  calendarFile({
    entries: [
      { id: 7, type: narrowType('shop'), stamp_start: NOW + 3_600_000, stamp_end: NOW + 7_200_000 },
    ],
    series: [],
    now: NOW,
    days: 7,
    labels: { shop: label },
  });

describe('the calendar file (.ics) and control characters', () => {
  it('drops C0, DEL and C1 controls from SUMMARY and DESCRIPTION, keeping the words', () => {
    const file = withLabel('Sale\u001b[31m now\u0085\u009b2J\u0000\u007f!');
    const summary = file.split('\r\n').find((line) => line.startsWith('SUMMARY:'));
    expect(summary).toBe('SUMMARY:Sale[31m now2J! (shop)');
    // Nothing but the CRLF line ends (and tabs) below U+0020, nothing of DEL and C1.
    // eslint-disable-next-line no-control-regex -- matching the control characters is the point
    expect(file.replaceAll('\r\n', '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
    const event = new ICAL.Component(ICAL.parse(file)).getFirstSubcomponent('vevent');
    expect(event?.getFirstPropertyValue('description')).toBe(
      'namecard entry 7: visitors get Sale[31m now2J!',
    );
  });

  it('writes a line break in a label as \\n, and keeps a tab', () => {
    const file = withLabel('Two\r\nlines\tand a tab');
    expect(file).toContain('SUMMARY:Two\\nlines\tand a tab (shop)');
  });
});
