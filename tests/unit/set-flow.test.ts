import { describe, expect, it, vi } from 'vitest';
import {
  setFlow,
  type SetArgs,
  type SetFlowDeps,
  type SetOptions,
} from '../../cli/commands/set.js';
import { UsageError } from '../../cli/errors.js';
import * as plan from '../../shared/calendar/plan.js';
import * as time from '../../shared/calendar/time.js';
import { InputError } from '../../shared/core/errors.js';

// `set` as a flow of steps, driven with its collaborators injected: the answers a person would
// type (each one checked by the prompt's check, as @inquirer does, until one passes), and the
// entry's rules counting their calls: the line read once, the profile checked once, one plan.

const NOW = Date.UTC(2030, 5, 1, 12, 0);

function harness(answers: Record<string, string[]>, interactive = true) {
  const planRequest = vi.fn(plan.planRequest);
  const readSetRequest = vi.fn(plan.readSetRequest);
  const parseProfile = vi.fn(plan.parseProfile);
  const localTimeZone = vi.fn(() => 'UTC');
  const asked: string[] = [];
  const refused: string[] = [];
  const signIn = vi.fn(async () => 'caller');
  const deps: SetFlowDeps<string> = {
    plan: { ...plan, planRequest, readSetRequest, parseProfile },
    time,
    localTimeZone,
    today: () => '2030-06-01',
    now: () => NOW,
    interactive,
    signIn,
    askProfile: async () => {
      asked.push('Profile');
      return answers.Profile?.shift() ?? 'main';
    },
    askText: async (message, check) => {
      asked.push(message);
      const key = message.split(' (')[0]!;
      for (;;) {
        const answer = answers[key]?.shift();
        if (answer === undefined) throw new Error(`no answer left for ${message}`);
        try {
          check(answer);
          return answer;
        } catch (error) {
          refused.push((error as Error).message);
        }
      }
    },
  };
  const run = (args: SetArgs, options: SetOptions = {}) => setFlow(args, options, deps);
  return {
    run,
    planRequest,
    readSetRequest,
    parseProfile,
    localTimeZone,
    asked,
    refused,
    signIn,
    deps,
  };
}

describe('set as a flow of steps', () => {
  it('reads the line once and plans once, with the complete request, when everything was given', async () => {
    const flow = harness({});
    const { caller, plan: entry } = await flow.run(
      { profile: 'photo', date: '2030-06-01', time: '18:00' },
      { tz: 'UTC', from: '2030-06-01 13:00' },
    );
    expect(caller).toBe('caller');
    expect(entry).toEqual({
      type: 'photo',
      stamp_start: Date.UTC(2030, 5, 1, 13),
      stamp_end: Date.UTC(2030, 5, 1, 18),
      timeZone: 'UTC',
    });
    expect(flow.asked).toEqual([]);
    expect(flow.readSetRequest).toHaveBeenCalledTimes(1);
    expect(flow.planRequest).toHaveBeenCalledTimes(1);
    const [request, type] = flow.planRequest.mock.calls[0]!;
    expect(request).toMatchObject({
      profile: 'photo',
      date: '2030-06-01',
      time: '18:00',
      from: '2030-06-01 13:00',
      timeZone: 'UTC',
    });
    expect(type).toBe('photo');
    // `--tz` named the zone: the machine's is not looked up; main and photo need no list.
    expect(flow.localTimeZone).not.toHaveBeenCalled();
    expect(flow.parseProfile).not.toHaveBeenCalled();
  });

  it("finds the machine's zone once when `--tz` names none, and reads it for the whole line", async () => {
    const flow = harness({});
    const { plan: entry } = await flow.run({ profile: 'main', date: '2030-06-01', time: '18:00' });
    expect(entry.timeZone).toBe('UTC');
    expect(flow.localTimeZone).toHaveBeenCalledTimes(1);
    expect(flow.readSetRequest).toHaveBeenCalledTimes(1);
  });

  it('asks each missing field, checks each answer with its field check, then plans once', async () => {
    const flow = harness({
      Profile: ['photo'],
      'Until date': ['2030-02-30', '2030-06-01'],
      'Until time': ['24:00', '11:00', '18:00'],
      From: ['2030-06-01 19:00', '2030-06-01 13:00'],
    });
    const { plan: entry } = await flow.run({}, {});
    expect(flow.asked).toEqual([
      'Profile',
      'Until date (YYYY-MM-DD)',
      'Until time (HH:MM, 24-hour, UTC)',
      'From (YYYY-MM-DD HH:MM, empty = now)',
    ]);
    expect(flow.refused).toEqual([
      '`date` 2030-02-30 does not exist: February 2030 has 28 days',
      '`time` must be HH:MM (24-hour), got `24:00`',
      '`date` and `time` must be in the future, got `2030-06-01 11:00` in UTC',
      '`--from` must be before the end (2030-06-01 18:00 UTC), got `2030-06-01 19:00`',
    ]);
    expect(entry.stamp_end).toBe(Date.UTC(2030, 5, 1, 18));
    expect(flow.planRequest).toHaveBeenCalledTimes(1);
  });

  it('skips the prompt of each argument given', async () => {
    const flow = harness({ 'Until time': ['18:00'], From: [''] });
    const { plan: entry } = await flow.run({ profile: 'main', date: '2030-06-01' });
    expect(flow.asked).toEqual([
      'Until time (HH:MM, 24-hour, UTC)',
      'From (YYYY-MM-DD HH:MM, empty = now)',
    ]);
    expect(entry).toMatchObject({ type: 'main', stamp_start: null });
    expect(flow.planRequest).toHaveBeenCalledTimes(1);
  });

  it('with --for asks only the profile, and never the end', async () => {
    const flow = harness({ Profile: ['photo'] });
    const { plan: entry } = await flow.run({}, { for: '2h' });
    expect(flow.asked).toEqual(['Profile']);
    expect(entry.stamp_end).toBe(NOW + 2 * 3_600_000);
    expect(flow.planRequest).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      { profile: 'fo to', date: '2030-06-01', time: '18:00' },
      {},
      '`profile` must be main or photo',
    ],
    [{ profile: 'photo', date: '2030-06-01' }, { for: '2h' }, '`--for` and an end date and time'],
    [{ profile: 'photo', date: '2030-06-01', time: '11:00' }, {}, 'must be in the future'],
    [
      { profile: 'photo', date: '2030-06-01', time: '18:00' },
      { from: '2030-06-01 19:00' },
      '`--from` must be before the end',
    ],
  ] as [SetArgs, SetOptions, string][])(
    'refuses %j %j before signing in or planning',
    async (args, options, message) => {
      const flow = harness({});
      await expect(flow.run(args, options)).rejects.toThrow(InputError);
      await expect(flow.run(args, options)).rejects.toThrow(message);
      expect(flow.signIn).not.toHaveBeenCalled();
      expect(flow.planRequest).not.toHaveBeenCalled();
    },
  );

  // A name of a profile's form may be one the owner added: it is checked against the server's
  // profiles once signed in, and never planned or stored when the server has no such profile.
  it.each([
    ['foto', '`profile` must be main, photo or shop, got `foto`: did you mean `photo`?'],
    ['shopp', '`profile` must be main, photo or shop, got `shopp`: did you mean `shop`?'],
    [
      'photographer',
      '`profile` must be main, photo or shop, got `photographer`: did you mean `photo`?',
    ],
    ['video', '`profile` must be main, photo or shop, got `video`'],
  ])("checks %s against the server's profiles after signing in", async (profile, message) => {
    const flow = harness({});
    const lists: string[] = [];
    const run = setFlow(
      { profile, date: '2030-06-01', time: '18:00' },
      { tz: 'UTC' },
      {
        ...flow.deps,
        profiles: async (caller) => {
          lists.push(caller);
          return ['main', 'photo', 'shop'].map((value) => ({ value, label: value }));
        },
      },
    );
    await expect(run).rejects.toThrow(message);
    expect(lists).toEqual(['caller']);
    expect(flow.parseProfile).toHaveBeenCalledTimes(1);
    expect(flow.planRequest).not.toHaveBeenCalled();
  });

  it('plans a profile the server has, and asks for main or photo without reading the list', async () => {
    const flow = harness({});
    let lists = 0;
    const deps = {
      ...flow.deps,
      profiles: async () => {
        lists += 1;
        return ['main', 'photo', 'shop'].map((value) => ({ value, label: value }));
      },
    };
    const args = { date: '2030-06-01', time: '18:00' };
    const shop = await setFlow({ profile: 'Shop', ...args }, { tz: 'UTC' }, deps);
    expect(shop.plan.type).toBe('shop');
    expect(lists).toBe(1);
    const photo = await setFlow({ profile: 'photo', ...args }, { tz: 'UTC' }, deps);
    expect(photo.plan.type).toBe('photo');
    expect(lists).toBe(1);
  });

  it('without a terminal names the missing arguments and their forms', async () => {
    const flow = harness({}, false);
    const failure = flow.run({ profile: 'photo' });
    await expect(failure).rejects.toThrow(UsageError);
    await expect(failure).rejects.toThrow(
      'missing arguments `date` (YYYY-MM-DD), `time` (HH:MM, 24-hour)',
    );
    expect(flow.signIn).not.toHaveBeenCalled();
  });
});
