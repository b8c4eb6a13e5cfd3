import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { hostTimeZone } from '../../cli/session/host-zone.js';
import { setHostTimeZone, toWallClock, zoneHeader } from '../../shared/core/format.js';

// `namecard status` reads its times with Date's local getters when it knows the machine's zone
// by name (cli/session/host-zone.ts), instead of starting Intl. What it shows must be what Intl
// shows.

describe('hostTimeZone: the machine zone by name, without Intl', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    [':Asia/Tokyo', 'Asia/Tokyo'],
    ['UTC', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('takes TZ=%s as %s', (tz, name) => {
    expect(hostTimeZone({ TZ: tz })).toBe(name);
  });

  it.each([
    // A POSIX rule, an unknown zone, a path out of the zone database, and empty: Intl decides.
    'CET-1CEST,M3.5.0,M10.5.0/3',
    'Mars/Olympus',
    '../../etc/passwd',
    '/usr/share/zoneinfo/Europe/Berlin',
    '',
  ])('leaves TZ=%s to Intl (undefined)', (tz) => {
    expect(hostTimeZone({ TZ: tz })).toBeUndefined();
  });

  it('without TZ, names the zone /etc/localtime links to: the zone the clock runs in', () => {
    const name = hostTimeZone({});
    // Where the link names no zone, Intl decides; where it does, both read the same time.
    if (name !== undefined) {
      const at = Date.UTC(2030, 6, 1, 12, 34);
      const local = new Date(at);
      expect(toWallClock(at, name).time).toBe(
        `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`,
      );
    }
  });
});

describe('a stamp read with the host clock is the one Intl gives', () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    setHostTimeZone(undefined);
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  // Zones with DST both ways, a half-hour DST (Lord Howe), a :45 offset, and a zone that
  // changed its offset for good (Samoa skipped 2011-12-30).
  it.each([
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'Asia/Kolkata',
    'Pacific/Apia',
    'UTC',
  ])('in %s', (zone) => {
    // Node reads TZ again when it is set: Date's local getters then run in that zone.
    process.env.TZ = zone;
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }), (at) => {
        setHostTimeZone(undefined);
        const intl = toWallClock(at, zone);
        const header = zoneHeader(zone, at);
        setHostTimeZone(zone);
        expect(toWallClock(at, zone)).toEqual(intl);
        expect(zoneHeader(zone, at)).toBe(header);
      }),
      { numRuns: 300 },
    );
  });

  it('reads other zones with Intl as before', () => {
    process.env.TZ = 'Europe/Berlin';
    setHostTimeZone('Europe/Berlin');
    const at = Date.UTC(2030, 0, 15, 12, 0);
    expect(toWallClock(at, 'Asia/Tokyo')).toEqual({
      date: '2030-01-15',
      time: '21:00',
      timeZone: 'Asia/Tokyo',
      offset: '+09:00',
    });
    expect(toWallClock(at, 'Europe/Berlin').time).toBe('13:00');
  });
});
