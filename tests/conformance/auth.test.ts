import {
  AuthApiError,
  isAuthSessionMissingError,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator, untilDbTime } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';
import { OWNER } from '../support/accounts.js';

// A second emulator with a reuse interval short enough to wait out in a test.
const SHORT_REUSE_INTERVAL_S = 1;

describe.each(DB_KINDS)('GoTrue subset over %s', (kind) => {
  let emulator: RunningEmulator;
  const client = (): SupabaseClient => createTestClient(emulator.url, emulator.anonKey);
  const auth = (path: string, init: RequestInit = {}) =>
    fetch(`${emulator.url}/auth/v1${path}`, {
      ...init,
      headers: {
        apikey: emulator.anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  const signIn = async () => {
    const supabase = client();
    const { data, error } = await supabase.auth.signInWithPassword(OWNER);
    expect(error).toBeNull();
    return { supabase, session: data.session! };
  };
  const refresh = (refresh_token: string) => client().auth.refreshSession({ refresh_token });

  beforeAll(async () => {
    // The default reuse interval (10 s), as `supabase start` configures it.
    emulator = await startTestEmulator(kind, { owner: OWNER });
  });
  afterAll(() => emulator?.stop());

  describe('password grant', () => {
    it('signs the owner in and returns a session with a bearer access token and the user', async () => {
      const { session } = await signIn();
      expect(session.token_type).toBe('bearer');
      expect(session.expires_in).toBe(3600);
      expect(session.refresh_token).toMatch(/^[a-z0-9]{12}$/);
      expect(session.user.email).toBe(OWNER.email);
      expect(session.user.aud).toBe('authenticated');
      expect(session.user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    });

    it('issues an HS256 access token with Supabase claims and a one-hour lifetime', async () => {
      const { session } = await signIn();
      const header = JSON.parse(
        Buffer.from(session.access_token.split('.')[0]!, 'base64url').toString(),
      );
      expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwt(session.access_token);
      expect(claims).toMatchObject({
        iss: `${emulator.url}/auth/v1`,
        sub: session.user.id,
        aud: 'authenticated',
        email: OWNER.email,
        phone: '',
        role: 'authenticated',
        aal: 'aal1',
        is_anonymous: false,
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: {},
      });
      expect(claims.exp! - claims.iat!).toBe(3600);
      expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    });

    it('rejects a wrong password with 400 invalid_credentials "Invalid login credentials"', async () => {
      const { error } = await client().auth.signInWithPassword({ ...OWNER, password: 'wrong' });
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    });

    it('rejects an unknown email exactly like a wrong password', async () => {
      const { error } = await client().auth.signInWithPassword({
        email: 'nobody@example.com',
        password: 'x',
      });
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    });

    it('answers in the 2024-01-01 error envelope, echoing the API version and x-sb-error-code', async () => {
      const res = await auth('/token?grant_type=password', {
        method: 'POST',
        body: JSON.stringify({ ...OWNER, password: 'wrong' }),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(res.headers.get('x-sb-error-code')).toBe('invalid_credentials');
      expect(await res.json()).toEqual({
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    });

    it('answers 400 validation_failed when neither email nor phone is given', async () => {
      const res = await auth('/token?grant_type=password', {
        method: 'POST',
        body: JSON.stringify({ password: 'x' }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'validation_failed',
        message: 'missing email or phone',
      });
    });
  });

  describe('refresh token grant', () => {
    it('rotates: the answer carries a new refresh token and a fresh access token for the same session', async () => {
      const { session } = await signIn();
      const { data, error } = await refresh(session.refresh_token);
      expect(error).toBeNull();
      expect(data.session!.refresh_token).toMatch(/^[a-z0-9]{12}$/);
      expect(data.session!.refresh_token).not.toBe(session.refresh_token);
      expect(data.session!.user.id).toBe(session.user.id);
      expect(decodeJwt(data.session!.access_token).session_id).toBe(
        decodeJwt(session.access_token).session_id,
      );
    });

    it('gives the active token back when its revoked parent is presented again', async () => {
      const { session } = await signIn();
      const first = await refresh(session.refresh_token);
      const again = await refresh(session.refresh_token);
      expect(again.error).toBeNull();
      expect(again.data.session!.refresh_token).toBe(first.data.session!.refresh_token);
    });

    it('accepts an older revoked token inside the reuse interval by issuing a new child', async () => {
      const { session } = await signIn();
      const t1 = (await refresh(session.refresh_token)).data.session!.refresh_token;
      await refresh(t1);
      const reused = await refresh(session.refresh_token);
      expect(reused.error).toBeNull();
      expect(reused.data.session!.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    });

    it('answers refresh_token_not_found for a token that was never issued', async () => {
      const { error } = await refresh('abcdefghijkl');
      expect(error).toMatchObject({
        status: 400,
        code: 'refresh_token_not_found',
        message: 'Invalid Refresh Token: Refresh Token Not Found',
      });
    });

    it('answers validation_failed "Refresh token is not valid" for a malformed token', async () => {
      const res = await auth('/token?grant_type=refresh_token', {
        method: 'POST',
        body: JSON.stringify({ refresh_token: 'NOT-VALID-12' }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'validation_failed',
        message: 'Refresh token is not valid',
      });
    });
  });

  describe(`refresh token reuse after a ${SHORT_REUSE_INTERVAL_S} s reuse interval`, () => {
    let shortLived: RunningEmulator;
    beforeAll(async () => {
      shortLived = await startTestEmulator(kind, {
        owner: OWNER,
        refreshTokenReuseInterval: SHORT_REUSE_INTERVAL_S,
      });
    });
    afterAll(() => shortLived?.stop());

    /** Waits until the server's clock has passed `token`'s revocation plus the reuse interval. */
    const untilReuseEnds = async (token: string) => {
      const [row] = await shortLived.query<{ revoked_at: string | number }>(
        `select (extract(epoch from updated_at) * 1000)::bigint as revoked_at
         from auth.refresh_tokens where token = $1 and revoked`,
        [token],
      );
      expect(row, 'the token is revoked').toBeDefined();
      await untilDbTime(shortLived, Number(row!.revoked_at) + SHORT_REUSE_INTERVAL_S * 1000);
    };

    it('answers refresh_token_already_used for a revoked token and revokes the whole session', async () => {
      const supabase = createTestClient(shortLived.url, shortLived.anonKey);
      const rotate = (refresh_token: string) =>
        createTestClient(shortLived.url, shortLived.anonKey).auth.refreshSession({ refresh_token });
      const { data } = await supabase.auth.signInWithPassword(OWNER);
      const t0 = data.session!.refresh_token;
      const t1 = (await rotate(t0)).data.session!.refresh_token;
      const t2 = (await rotate(t1)).data.session!.refresh_token;
      await untilReuseEnds(t0);

      const { error } = await rotate(t0);
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 'refresh_token_already_used',
        message: 'Invalid Refresh Token: Already Used',
      });
      // t2 was the active token; revoking the family took it too, so once its own
      // reuse interval has passed it is refused as well.
      await untilReuseEnds(t2);
      expect((await rotate(t2)).error).toMatchObject({
        status: 400,
        code: 'refresh_token_already_used',
      });
    });
  });

  describe('user, logout, signup, settings', () => {
    it('GET /user returns the bare user object without any password hash', async () => {
      const { session } = await signIn();
      const res = await auth('/user', {
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain('encrypted_password');
      expect(text).not.toMatch(/\$2[aby]\$/);
      const user = JSON.parse(text);
      expect(user).toMatchObject({
        id: session.user.id,
        email: OWNER.email,
        aud: 'authenticated',
        role: 'authenticated',
      });
      expect(user).not.toHaveProperty('user');
    });

    it('the sign-in answer carries no password hash either', async () => {
      const res = await auth('/token?grant_type=password', {
        method: 'POST',
        body: JSON.stringify(OWNER),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).not.toContain('encrypted_password');
      expect(text).not.toMatch(/\$2[aby]\$/);
    });

    it('GET /user without a bearer token answers 401 no_authorization', async () => {
      const res = await auth('/user');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: 'no_authorization',
        message: 'This endpoint requires a valid Bearer token',
      });
    });

    it('GET /user with the anon key answers 403 bad_jwt "missing sub claim"', async () => {
      const res = await auth('/user', { headers: { authorization: `Bearer ${emulator.anonKey}` } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'bad_jwt',
        message: 'invalid claim: missing sub claim',
      });
    });

    it('logout answers 204; the refresh token then gives refresh_token_not_found', async () => {
      const { session } = await signIn();
      const res = await auth('/logout?scope=global', {
        method: 'POST',
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');

      const { error } = await refresh(session.refresh_token);
      expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    });

    it('after signOut() the access token no longer resolves a user (session_not_found)', async () => {
      const { supabase, session } = await signIn();
      expect((await supabase.auth.signOut()).error).toBeNull();
      const { error } = await client().auth.getUser(session.access_token);
      expect(isAuthSessionMissingError(error)).toBe(true);
    });

    it('logout with scope=local ends only that session', async () => {
      const a = await signIn();
      const b = await signIn();
      const res = await auth('/logout?scope=local', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.session.access_token}` },
      });
      expect(res.status).toBe(204);
      expect((await refresh(a.session.refresh_token)).error).toMatchObject({
        code: 'refresh_token_not_found',
      });
      expect((await refresh(b.session.refresh_token)).error).toBeNull();
    });

    it('logout with an unknown scope answers 400 validation_failed', async () => {
      const { session } = await signIn();
      const res = await auth('/logout?scope=everyone', {
        method: 'POST',
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('validation_failed');
    });

    it('refuses sign-up with 422 signup_disabled "Signups not allowed for this instance"', async () => {
      const { error } = await client().auth.signUp({
        email: 'new@example.com',
        password: 'new-password-1',
      });
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 422,
        code: 'signup_disabled',
        message: 'Signups not allowed for this instance',
      });
    });

    it('GET /settings reports sign-up disabled and email logins enabled', async () => {
      const res = await auth('/settings');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ disable_signup: true, external: { email: true } });
    });
  });
});
