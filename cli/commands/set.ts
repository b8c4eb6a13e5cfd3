import { Command } from 'commander';
import { InputError } from '../../shared/core/errors.js';
import { activeEntry, targetUrl } from '../../shared/core/rules.js';
import { PROFILE_LABELS, isProfileType, type ProfileType } from '../../shared/core/types.js';
import { UsageError } from '../errors.js';
import { out, print, printJson } from '../output.js';
import { askProfile, askText, isInteractive } from '../prompts.js';
import { resolveConfig } from '../settings.js';

interface SetOptions {
  tz?: string;
  json?: boolean;
  apiUrl?: string;
}

const FORMS = { profile: 'main or photo', date: 'YYYY-MM-DD', time: 'HH:MM (24-hour)' } as const;
const MISSING = { profile: 'main or photo', date: 'YYYY-MM-DD', time: 'HH:MM, 24-hour' } as const;

export const setCommand = new Command('set')
  .description("set the card's profile and end time")
  .argument('[profile]', FORMS.profile)
  .argument('[date]', `the end date, ${FORMS.date}`)
  .argument('[time]', `the end time, ${FORMS.time}`)
  .option('--tz <zone>', "the IANA time zone of date and time (default: this machine's)")
  .option('--json', 'print the result as one JSON document')
  .addHelpText(
    'after',
    `
At a terminal, missing arguments are asked for.

Examples:
  $ namecard set photo 2030-06-01 18:00
  $ namecard set main 2030-06-01 09:30 --tz Europe/Berlin`,
  )
  .action(
    async (
      profileArg: string | undefined,
      dateArg: string | undefined,
      timeArg: string | undefined,
      _options: SetOptions,
      command: Command,
    ) => {
      const options = command.optsWithGlobals<SetOptions>();
      const config = resolveConfig(options);
      const time = await import('../../shared/calendar/time.js');

      // The end as epoch ms: the wall-clock date and time in `zone`, refused unless in the future.
      const toFutureStamp = (date: string, clock: string, zone: string): number => {
        const stamp = time.toStampEnd(date, clock, zone);
        if (stamp <= Date.now()) {
          throw new InputError(
            'time',
            'in the future',
            clock,
            `\`date\` and \`time\` must be in the future, got \`${date} ${clock}\` in ${zone}`,
          );
        }
        return stamp;
      };

      // 1. Check everything given on the command line before asking or sending anything.
      let zone = time.localTimeZone();
      if (options.tz !== undefined) {
        try {
          zone = time.parseTimeZone(options.tz);
        } catch {
          throw new InputError('--tz', 'an IANA time zone such as Asia/Tokyo', options.tz);
        }
      }
      if (profileArg !== undefined && !isProfileType(profileArg)) {
        throw new InputError('profile', FORMS.profile, profileArg);
      }
      if (dateArg !== undefined) time.parseDate(dateArg);
      if (timeArg !== undefined) time.parseTime(timeArg);
      if (dateArg !== undefined && timeArg !== undefined) toFutureStamp(dateArg, timeArg, zone);

      const missing = (['profile', 'date', 'time'] as const).filter(
        (_, i) => [profileArg, dateArg, timeArg][i] === undefined,
      );
      if (missing.length > 0 && !isInteractive()) {
        const names = missing.map((name) => `\`${name}\` (${MISSING[name]})`).join(', ');
        throw new UsageError(
          `missing argument${missing.length > 1 ? 's' : ''} ${names}`,
          'Usage: namecard set <profile> <date> <time> [--tz <zone>]; without a terminal nothing can be asked',
        );
      }

      // 2. The owner's session, before any question, so a signed-out user is told at once.
      const { requireOwner } = await import('../session.js');
      const owner = await requireOwner(config);

      // 3. Ask for what is missing, each answer checked as it is typed.
      const profile: ProfileType = isProfileType(profileArg) ? profileArg : await askProfile();
      const today = time.toWallClock(Date.now(), zone).date;
      const date =
        dateArg ??
        (await askText(
          `Date (${FORMS.date})`,
          (value) => {
            time.parseDate(value);
            if (value < today) {
              throw new InputError(
                'date',
                'today or later',
                value,
                `\`date\` must be today (${today}) or later, got \`${value}\``,
              );
            }
          },
          today,
        ));
      const clock =
        timeArg ??
        (await askText(`Time (${MISSING.time}, ${zone})`, (value) => {
          time.parseTime(value);
          toFutureStamp(date, value, zone);
        }));
      const stampEnd = toFutureStamp(date, clock, zone);

      // 4. Insert, and report only what the server confirmed.
      const { insertEntry } = await import('../../shared/supabase/data.js');
      const row = await owner.transport.guard(() =>
        insertEntry(owner.client, { type: profile, stamp_end: stampEnd }),
      );
      const target = targetUrl(activeEntry([row], Date.now())?.type, config);
      if (options.json) {
        printJson({
          profile: row.type,
          stamp_end: row.stamp_end,
          ends_at: new Date(row.stamp_end).toISOString(),
          time_zone: zone,
          target,
          row,
        });
        return;
      }
      const label = isProfileType(row.type) ? ` (${PROFILE_LABELS[row.type]})` : '';
      const lines = [
        `${out.green('✔')} The card points to ${out.bold(row.type)}${label} until ${time.formatStamp(row.stamp_end, zone)}`,
      ];
      const local = time.localTimeZone();
      if (local !== zone) lines.push(`  That is ${time.formatStamp(row.stamp_end, local)} here.`);
      lines.push(`  Visitors now go to ${out.cyan(target)}`);
      print(...lines);
    },
  );
