import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUPABASE_URL,
  isDemoKey,
  LOCAL_ANON_KEY,
  loadConfig,
} from '../../shared/core/config.js';
import { ConfigError } from '../../shared/core/errors.js';

describe('loadConfig', () => {
  it('defaults to the local emulator and the demo card site', () => {
    const config = loadConfig({});
    expect(config.supabaseUrl).toBe(DEFAULT_SUPABASE_URL);
    expect(config.anonKey).toBe(LOCAL_ANON_KEY);
    expect(config.targets).toEqual({
      main: 'http://127.0.0.1:4174/',
      photo: 'http://127.0.0.1:4174/photo',
    });
  });

  it('takes each setting from its environment name and trims a trailing slash off the API URL', () => {
    const config = loadConfig({
      SUPABASE_URL: 'https://abc.supabase.co/',
      SUPABASE_ANON_KEY: 'sb_publishable_abc123',
      NAMECARD_MAIN_URL: 'https://me.example/',
      NAMECARD_PHOTO_PATH: 'gallery/',
    });
    expect(config.supabaseUrl).toBe('https://abc.supabase.co');
    expect(config.targets.photo).toBe('https://me.example/gallery/');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ SUPABASE_URL: '  ' }).supabaseUrl).toBe(DEFAULT_SUPABASE_URL);
  });

  it.each([
    [
      'SUPABASE_URL',
      'localhost:54321',
      '`SUPABASE_URL` must be an http(s) URL such as http://127.0.0.1:54321, got `localhost:54321`',
    ],
    [
      'SUPABASE_URL',
      'ftp://x.example',
      '`SUPABASE_URL` must be an http(s) URL such as http://127.0.0.1:54321, got `ftp://x.example`',
    ],
    [
      'NAMECARD_MAIN_URL',
      'me.example',
      '`NAMECARD_MAIN_URL` must be an http(s) URL such as https://me.example/, got `me.example`',
    ],
    [
      'NAMECARD_PHOTO_PATH',
      '//evil.example/x',
      '`NAMECARD_PHOTO_PATH` must be a path under the main site',
    ],
    [
      'NAMECARD_PHOTO_PATH',
      'https://evil.example/',
      '`NAMECARD_PHOTO_PATH` must be a path under the main site',
    ],
    ['NAMECARD_PHOTO_PATH', '../other', '`NAMECARD_PHOTO_PATH` must be a path under the main site'],
  ])('rejects %s=%j naming the setting', (setting, value, message) => {
    const error = (() => {
      try {
        loadConfig({ NAMECARD_MAIN_URL: 'https://me.example/card/', [setting]: value });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.setting).toBe(setting);
    expect(error.message).toContain(message);
  });

  it('rejects a malformed anon key without repeating it', () => {
    expect(() => loadConfig({ SUPABASE_ANON_KEY: 'not a key' })).toThrow(
      /^`SUPABASE_ANON_KEY` must be the project's anon key/,
    );
    try {
      loadConfig({ SUPABASE_ANON_KEY: 'secret-looking value' });
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-looking');
    }
  });
});

describe('loadConfig and the service_role key', () => {
  // Supabase's well-known local service_role key: same payload as the anon key, role service_role.
  const serviceRoleKey =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

  it('refuses a service_role key as SUPABASE_ANON_KEY, naming the setting and the role', () => {
    expect(() => loadConfig({ SUPABASE_ANON_KEY: serviceRoleKey })).toThrow(
      "`SUPABASE_ANON_KEY` must be the project's anon (public) key, but this key's role is `service_role`: never use the service_role key here",
    );
  });

  it('accepts the anon key and publishable keys', () => {
    expect(loadConfig({ SUPABASE_ANON_KEY: LOCAL_ANON_KEY }).anonKey).toBe(LOCAL_ANON_KEY);
    expect(loadConfig({ SUPABASE_ANON_KEY: 'sb_publishable_x1' }).anonKey).toBe(
      'sb_publishable_x1',
    );
  });
});

describe('loadConfig: the demo key only for an API on this machine', () => {
  it.each([
    'http://127.0.0.1:54321',
    'http://127.0.0.2:8000',
    'http://localhost:54321',
    'http://[::1]:54321',
  ])('an unset key against %s is the emulator demo key', (url) => {
    expect(loadConfig({ SUPABASE_URL: url }).anonKey).toBe(LOCAL_ANON_KEY);
    expect(loadConfig({ SUPABASE_URL: url, SUPABASE_ANON_KEY: '' }).anonKey).toBe(LOCAL_ANON_KEY);
  });

  it.each(['https://abc.supabase.co', 'http://192.168.1.20:54321', 'https://api.me.example/'])(
    'an unset or empty key against %s stops, naming SUPABASE_ANON_KEY',
    (url) => {
      for (const key of [undefined, '', '  ']) {
        let error: unknown;
        try {
          loadConfig({ SUPABASE_URL: url, SUPABASE_ANON_KEY: key });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).setting).toBe('SUPABASE_ANON_KEY');
        expect((error as ConfigError).message).toMatch(
          /^`SUPABASE_ANON_KEY` is not set, and `SUPABASE_URL` .* is not on this machine: set it to that project's anon or publishable key/,
        );
      }
    },
  );

  it('a key that is given is used against any API (an emulator on a LAN says so itself)', () => {
    expect(
      loadConfig({ SUPABASE_URL: 'http://192.168.1.20:54321', SUPABASE_ANON_KEY: LOCAL_ANON_KEY })
        .anonKey,
    ).toBe(LOCAL_ANON_KEY);
  });

  it('isDemoKey knows the demo key and any key issued by supabase-demo, and nothing else', () => {
    expect(isDemoKey(LOCAL_ANON_KEY)).toBe(true);
    const claims = btoa(JSON.stringify({ iss: 'supabase-demo', role: 'anon', exp: 1799535600 }));
    expect(isDemoKey(`eyJhbGciOiJIUzI1NiJ9.${claims.replace(/=+$/, '')}.c2ln`)).toBe(true);
    const hosted = btoa(JSON.stringify({ iss: 'supabase', ref: 'abc', role: 'anon' }));
    expect(isDemoKey(`eyJhbGciOiJIUzI1NiJ9.${hosted.replace(/=+$/, '')}.c2ln`)).toBe(false);
    expect(isDemoKey('sb_publishable_abc123')).toBe(false);
  });
});
