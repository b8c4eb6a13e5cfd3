import { describe, expect, it } from 'vitest';
import { JwtError, signJwt, verifyJwt } from '../../emulator/jwt.js';
import {
  LOCAL_ANON_KEY,
  LOCAL_PUBLISHABLE_KEY,
  LOCAL_SECRET_KEY,
  LOCAL_SERVICE_ROLE_KEY,
  localKeyPayload,
  resolveApiKey,
} from '../../emulator/keys.js';

describe('local keys and JWTs', () => {
  it('signing the anon payload with the local secret reproduces the well-known anon key', async () => {
    expect(await signJwt(localKeyPayload('anon'))).toBe(LOCAL_ANON_KEY);
    expect(LOCAL_ANON_KEY).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
    );
  });

  it('signing the service_role payload reproduces the service_role key', async () => {
    expect(await signJwt(localKeyPayload('service_role'))).toBe(LOCAL_SERVICE_ROLE_KEY);
  });

  it('maps the opaque sb_ keys to the JWT they stand for and rejects anything else', () => {
    expect(resolveApiKey(LOCAL_PUBLISHABLE_KEY)).toBe(LOCAL_ANON_KEY);
    expect(resolveApiKey(LOCAL_SECRET_KEY)).toBe(LOCAL_SERVICE_ROLE_KEY);
    expect(resolveApiKey(LOCAL_ANON_KEY)).toBe(LOCAL_ANON_KEY);
    expect(resolveApiKey('sb_publishable_other')).toBeUndefined();
  });

  it('accepts a token expired less than 30 s ago and rejects one expired longer ago', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyJwt(await signJwt({ role: 'anon', exp: now - 20 }))).resolves.toMatchObject({
      role: 'anon',
    });
    const expired = verifyJwt(await signJwt({ role: 'anon', exp: now - 60 }));
    await expect(expired).rejects.toBeInstanceOf(JwtError);
    await expect(expired).rejects.toMatchObject({ problem: 'expired', message: 'JWT expired' });
  });

  it('rejects a token with a forged signature and a token that is not a JWT', async () => {
    const [h, p] = LOCAL_ANON_KEY.split('.');
    await expect(verifyJwt(`${h}.${p}.AAAA`)).rejects.toMatchObject({ problem: 'invalid' });
    await expect(verifyJwt('abc')).rejects.toMatchObject({
      problem: 'invalid',
      message: 'Expected 3 parts in JWT; got 1',
    });
  });
});
