import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/core/errors.js';
import { describeCall, MAX_REDIRECTS, redirectTarget } from '../../cli/transport/transport.js';

// What the transport decides about a request before sending it: what the call is (from its
// method and its path below the API, never from a substring of the URL), and where a redirect
// may lead. The retry and write rules read only these.

const API = 'https://abc.supabase.co';

describe('describeCall', () => {
  it('names a function called by POST, and keeps the act its command declared', () => {
    expect(describeCall(API, 'post', `${API}/rest/v1/rpc/namecard_set`, 'set')).toEqual({
      kind: 'rpc',
      method: 'POST',
      name: 'namecard_set',
      act: 'set',
    });
  });

  it('a POST to a table is an insert of that table', () => {
    expect(describeCall(API, 'POST', `${API}/rest/v1/entries?select=*`)).toMatchObject({
      kind: 'insert',
      table: 'entries',
    });
  });

  it('GET and HEAD are reads, a function called with GET too', () => {
    for (const method of ['GET', 'head']) {
      expect(describeCall(API, method, `${API}/rest/v1/rpc/namecard_status`).kind).toBe('read');
      expect(describeCall(API, method, `${API}/rest/v1/entries`).kind).toBe('read');
    }
  });

  it("GoTrue's requests are auth, whatever their method", () => {
    expect(describeCall(API, 'POST', `${API}/auth/v1/token?grant_type=password`)).toEqual({
      kind: 'auth',
      method: 'POST',
      endpoint: 'token',
    });
    expect(describeCall(API, 'GET', `${API}/auth/v1/user`).kind).toBe('auth');
  });

  it('an API under a path is read below that path', () => {
    const base = 'http://127.0.0.1:8000/project';
    expect(describeCall(base, 'POST', `${base}/auth/v1/logout`).kind).toBe('auth');
    expect(describeCall(base, 'POST', `${base}/rest/v1/rpc/namecard_end_now`)).toMatchObject({
      kind: 'rpc',
      name: 'namecard_end_now',
    });
  });

  it('a URL that only contains /auth/v1/ somewhere is not GoTrue: its POST is a write', () => {
    for (const url of [
      `${API}/rest/v1/auth/v1/x`,
      `${API}/other/auth/v1/token`,
      `https://elsewhere.example/auth/v1/token`,
    ]) {
      expect(describeCall(API, 'POST', url).kind).not.toBe('auth');
    }
  });

  it('PATCH, PUT and DELETE are writes, named by the act and not the URL', () => {
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      expect(
        describeCall(API, method, `${API}/rest/v1/profiles?name=eq.x`, 'profile change'),
      ).toMatchObject({ kind: 'write', method, act: 'profile change' });
    }
    expect(describeCall(API, 'POST', `${API}/rest/v1/rpc/a/b`).kind).toBe('write');
  });
});

describe('redirectTarget', () => {
  const answer = (status: number, location: string | null) => ({
    ok: false,
    status,
    statusText: '',
    headers: { get: (name: string) => (name === 'location' ? location : null) },
  });
  const from = `${API}/rest/v1/entries`;

  it('is undefined for an answer that is not a redirect', () => {
    expect(redirectTarget(API, 'GET', from, answer(200, null), 0)).toBeUndefined();
    expect(redirectTarget(API, 'GET', from, answer(302, null), 0)).toBeUndefined();
  });

  it('resolves a relative Location on the same origin', () => {
    expect(redirectTarget(API, 'GET', from, answer(301, '/rest/v1/cards'), 0)).toBe(
      `${API}/rest/v1/cards`,
    );
    expect(redirectTarget(API, 'POST', from, answer(307, '/rest/v1/e2'), 0)).toBe(
      `${API}/rest/v1/e2`,
    );
  });

  it('refuses another origin, a write turned into a GET, and one redirect too many', () => {
    const refused = (method: string, status: number, location: string, redirects = 0) => {
      try {
        redirectTarget(API, method, from, answer(status, location), redirects);
      } catch (e) {
        return e instanceof ApiError ? e.message : String(e);
      }
      return 'followed';
    };
    expect(refused('GET', 302, 'https://evil.example/x')).toMatch(/another origin: not followed/);
    expect(refused('POST', 303, '/rest/v1/x')).toMatch(/would turn the POST into a GET/);
    expect(refused('GET', 302, '/x', MAX_REDIRECTS)).toMatch(/after 5 redirects/);
    expect(refused('GET', 302, '/x', MAX_REDIRECTS - 1)).toBe('followed');
  });
});
