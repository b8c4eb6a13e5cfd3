import type { Session } from '@supabase/supabase-js';
import type { RawSettings } from '../../shared/core/config.js';
import { ApiError } from '../../shared/core/errors.js';
import type { Connection } from './connect.js';
import { sanitizeServerMessage } from '../terminal/display.js';
import { UsageError } from '../errors.js';
import { err } from '../terminal/output.js';
import { askPassword, askText } from '../terminal/prompts.js';
import type { CliConfig } from './settings.js';

// Signing in at a terminal, shared by `namecard login` and any command that offers to sign in
// when signed out. Loads session.js (conf, supabase-js) only when it signs in.

/** How many passwords a person may type before the command gives up. */
export const PASSWORD_TRIES = 3;

/**
 * Checks an email as typed or given by `--email`.
 *
 * @throws UsageError naming `email` and the expected form
 */
export function checkEmail(value: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new UsageError(`\`email\` must be an email address, got \`${value}\``);
  }
}

/** A signed-in session, saved as `namecard login` saves it. */
export interface SignedIn extends Connection {
  session: Session;
  /** The email of the signed-in user (the server's, else the one typed). */
  email: string;
}

/** The server refused the email and password themselves (GoTrue's 400 `invalid_credentials`). */
function isWrongPassword(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'invalid_credentials';
}

/**
 * Signs in with email and password and stores the session with `settings`, replacing a broken
 * config file: what `namecard login` does once it has both.
 *
 * @throws ApiError with the server's message (e.g. `Invalid login credentials`); NetworkError
 */
export async function signInAndSave(
  config: CliConfig,
  email: string,
  password: string,
  settings: RawSettings = {},
): Promise<SignedIn> {
  const { signIn, openStore, saveLogin } = await import('./session.js');
  const signedIn = await signIn(config, email, password);
  const { store } = openStore(process.env, { replaceBroken: true });
  saveLogin(store, config, signedIn.session, email, settings);
  return { ...signedIn, email: signedIn.session.user.email ?? email };
}

/**
 * Signs in at a terminal: asks for the email (unless given) and a masked password; after a
 * wrong pair asks again ({@link PASSWORD_TRIES} tries in all), the email too when it was typed
 * at the prompt (the typo may be in it; Enter keeps the one typed), then stores the session
 * with `settings` in the config file (a broken file is replaced).
 *
 * @param config the settings of this run; the session is stored for `config.supabaseUrl`
 * @param options.email the email given on the command line, already checked: only the
 *   password is asked again
 * @param options.suggestedEmail the email the prompt offers first (Enter takes it)
 * @param options.settings the settings given by flag or environment, saved with the session
 * @throws ApiError with the server's message after the last wrong password or for any other
 *   refusal; NetworkError; the prompt's ExitPromptError on Ctrl+C
 */
export async function signInInteractively(
  config: CliConfig,
  options: { email?: string; suggestedEmail?: string; settings?: RawSettings } = {},
): Promise<SignedIn> {
  let typed = options.suggestedEmail;
  for (let tries = 1; ; tries++) {
    const email = options.email ?? (typed = await askText('Email', checkEmail, typed));
    const password = await askPassword();
    try {
      return await signInAndSave(config, email, password, options.settings);
    } catch (error) {
      if (!isWrongPassword(error) || tries >= PASSWORD_TRIES) throw error;
      const left = PASSWORD_TRIES - tries;
      const message = sanitizeServerMessage((error as ApiError).message);
      process.stderr.write(
        `${err.red('error:')} ${message}: try again (${left} ${left === 1 ? 'try' : 'tries'} left)\n`,
      );
    }
  }
}
