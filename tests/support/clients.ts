import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { OWNER, STRANGER, type Account } from './accounts.js';
import { startTestEmulator, type DbKind } from './emulator.js';
import { createTestClient } from './supabase.js';

/** An emulator and the three callers the conformance tests talk to it as. */
export interface Callers {
  emulator: RunningEmulator;
  /** No session: the anon key only, as /go and a visitor's browser call. */
  anon: SupabaseClient;
  /** Signed in as one of the card's owners. */
  owner: SupabaseClient;
  /** The owner's user id and access token (for raw HTTP calls). */
  ownerId: string;
  ownerToken: string;
  /** Signed in as an account that is not an owner. */
  stranger: SupabaseClient;
  /** The stranger's user id and access token (for raw HTTP calls). */
  strangerId: string;
  strangerToken: string;
}

/**
 * Starts an emulator over `kind` (startTestEmulator) with `accounts.owner` as the card's owner
 * and `accounts.stranger` as a signed-up account that is no owner (by default the shared
 * OWNER and STRANGER), and signs each in on a client of its own (no persisted session, as the
 * CLI's), beside an anon client. Both sign-ins are asserted to succeed. The caller stops
 * `emulator` (afterAll).
 */
export async function startWithCallers(
  kind: DbKind,
  accounts: { owner: Account; stranger: Account } = { owner: OWNER, stranger: STRANGER },
): Promise<Callers> {
  const emulator = await startTestEmulator(kind, { owner: accounts.owner });
  try {
    await emulator.createUser(accounts.stranger.email, accounts.stranger.password);
    const anon = createTestClient(emulator.url, emulator.anonKey);
    const owner = createTestClient(emulator.url, emulator.anonKey);
    const stranger = createTestClient(emulator.url, emulator.anonKey);
    const ownerIn = await owner.auth.signInWithPassword(accounts.owner);
    expect(ownerIn.error).toBeNull();
    const strangerIn = await stranger.auth.signInWithPassword(accounts.stranger);
    expect(strangerIn.error).toBeNull();
    return {
      emulator,
      anon,
      owner,
      ownerId: ownerIn.data.user!.id,
      ownerToken: ownerIn.data.session!.access_token,
      stranger,
      strangerId: strangerIn.data.user!.id,
      strangerToken: strangerIn.data.session!.access_token,
    };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}

/**
 * Registers the hooks of a test file whose tests each start with no entry and no series: the
 * callers of {@link startWithCallers} over `kind`, started once for the file (stopped after it),
 * and before each test every entry, series and stopped occurrence deleted. The object it answers
 * is filled in by the hooks: read its fields inside tests and helpers, not when the file loads.
 */
export function useCallersWithoutEntries(kind: DbKind): Callers {
  const callers = {} as Callers;
  beforeAll(async () => {
    Object.assign(callers, await startWithCallers(kind));
  });
  afterAll(() => callers.emulator?.stop());
  beforeEach(async () => {
    await callers.emulator.query('delete from public.namecard_series_stop');
    await callers.emulator.query('delete from public.namecard_series');
    await callers.emulator.query('delete from public.namecard');
  });
  return callers;
}
