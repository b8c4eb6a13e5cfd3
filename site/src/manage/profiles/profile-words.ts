import { ApiError } from '../../../../shared/core/errors.js';
import { inPlainWords } from '../../../../shared/core/plain-words.js';
import {
  PROFILE_REFUSAL_WORDS as WORDS,
  readProfileRefusal,
  type InUse,
} from '../../../../shared/core/profile-words.js';
import type { ProfileFieldProblem } from '../../../../shared/core/profiles.js';
import { resolveTargets } from '../../../../shared/core/rules.js';
import type { ProfileEntry } from '../../../../shared/supabase/data.js';
import { siteConfig } from '../../site-config.js';

// The Profiles section's words: the shared refusals (shared/core/profile-words.ts) in plain
// words for the page, each with the page's own next step. Pure: no component, no hook.

/** The build's own targets, for main and photo while they have no URL of their own. */
export const BUILD_TARGETS: Readonly<Record<string, string>> = resolveTargets(siteConfig);

/** Where a profile sends visitors, in words for the list. */
export function destination(profile: ProfileEntry): string {
  if (profile.url !== null) return profile.url;
  return `${BUILD_TARGETS[profile.name] ?? siteConfig.mainUrl} (this site's setting)`;
}

/** What the page says after a change: its words and whether it went through. */
export interface Said {
  tone: 'ok' | 'error';
  text: string;
  /** For a profile in use: the entries and series that name it (the page offers to show them). */
  inUse?: InUse;
}

/** A sentence from the shared words: plain words, its first letter capital, a full stop. */
export function sentence(words: string): string {
  const plain = inPlainWords(words);
  return `${plain.charAt(0).toUpperCase()}${plain.slice(1)}.`;
}

/** A field problem in the form's words: the field's label, what it must be, and what to do. */
export function say(problem: ProfileFieldProblem, label: string): string {
  const text = problem.message.replace(`\`${problem.field}\``, label);
  return problem.hint ? `${text}: ${problem.hint}.` : `${text}.`;
}

/** Runs the checks in order; the first problem, in words, or null. */
export function firstProblem(checks: [ProfileFieldProblem | null, string][]): string | null {
  for (const [problem, label] of checks) if (problem) return say(problem, label);
  return null;
}

/**
 * Why an add was refused, when the server said the name is taken: what that profile is, and
 * how to change it instead; undefined for any other error.
 *
 * @param name the name that was typed
 * @param profiles the profiles the page has (the one of that name among them)
 */
export function addRefusal(
  error: unknown,
  name: string,
  profiles: readonly ProfileEntry[],
): string | undefined {
  if (readProfileRefusal(error)?.code !== 'profile_exists') return undefined;
  const existing = profiles.find((p) => p.name === name);
  const what = existing ? `${existing.label}, ${destination(existing)}` : 'in the list above';
  return `${sentence(WORDS.exists(name, what))} Change it with its Edit button, or choose another name.`;
}

/**
 * Why a removal was refused, with the page's next step: in use (the ids, and the Cancel buttons
 * that clear them: the page offers to show each), main, or gone meanwhile (another tab).
 *
 * @param profile the profile that was to be removed
 */
export function removeRefusal(error: unknown, profile: ProfileEntry): Said | undefined {
  const refusal = readProfileRefusal(error);
  if (refusal?.code === 'profile_in_use') {
    const count = refusal.inUse.entries.length + refusal.inUse.series.length;
    const them = count === 1 ? 'it' : 'them';
    return {
      tone: 'error',
      text: `${sentence(WORDS.inUse(profile.name, refusal.inUse))} Cancel ${them} first with ${count === 1 ? 'its' : 'their'} Cancel button, or wait until ${count === 1 ? 'it ends' : 'they end'}; then remove ${profile.label}.`,
      inUse: refusal.inUse,
    };
  }
  if (refusal?.code === 'main_profile') return { tone: 'error', text: sentence(WORDS.main()) };
  if (error instanceof ApiError && error.code === 'no_row') {
    return { tone: 'error', text: sentence(WORDS.none(profile.name)) };
  }
  return undefined;
}
