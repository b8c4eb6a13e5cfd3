import { AuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvOptions, UsageError } from '../../emulator/cli-options.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { startTestEmulator } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';

// The emulator's sign-up switch: off as namecard wants it, on as a new hosted project starts,
// so that `namecard doctor` can be shown catching it.

describe('NAMECARD_SIGN_UPS', () => {
  it('is on or off, unset meaning off; anything else names the variable', () => {
    expect(readEnvOptions({ NAMECARD_SIGN_UPS: 'on' }).signUps).toBe(true);
    expect(readEnvOptions({ NAMECARD_SIGN_UPS: 'off' }).signUps).toBe(false);
    expect(readEnvOptions({}).signUps).toBeUndefined();
    expect(() => readEnvOptions({ NAMECARD_SIGN_UPS: 'yes' })).toThrow(
      new UsageError('`NAMECARD_SIGN_UPS` must be `on` or `off`, got `yes`'),
    );
  });
});

describe('an emulator with sign-ups on', () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startTestEmulator('pglite', { signUps: true });
  });
  afterAll(() => emulator?.stop());

  it('says so in /auth/v1/settings', async () => {
    const res = await fetch(`${emulator.url}/auth/v1/settings`, {
      headers: { apikey: emulator.anonKey },
    });
    expect(await res.json()).toMatchObject({ disable_signup: false, mailer_autoconfirm: true });
  });

  it('lets anyone sign up and in, once per e-mail', async () => {
    const client = createTestClient(emulator.url, emulator.anonKey);
    const { data, error } = await client.auth.signUp({
      email: 'Anyone@Example.com',
      password: 'anyone-password-1',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe('anyone@example.com');
    expect(data.session?.access_token).toBeTruthy();
    const rows = await emulator.query<{ email: string }>('select email from auth.users');
    expect(rows).toEqual([{ email: 'anyone@example.com' }]);

    const again = await client.auth.signUp({
      email: 'anyone@example.com',
      password: 'another-password-1',
    });
    expect(again.error).toBeInstanceOf(AuthApiError);
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
  });
});
