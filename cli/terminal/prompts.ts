import { PROFILE_OPTIONS } from '../../shared/core/profiles.js';

// Prompts render on stderr so that stdout carries only the result (one JSON document with
// `--json`). @inquirer/prompts is loaded only when a prompt is about to be shown.

/** True when a person can answer prompts: both the keyboard and the screen are a terminal. */
export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

const context = { output: process.stderr };

/** The validate callback of @inquirer: true, or the message of the error `check` throws. */
function validateWith(check: (value: string) => void) {
  return (value: string): true | string => {
    try {
      check(value.trim());
      return true;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
}

/**
 * The profile prompt's choices: the server's profiles (their labels, in order) when given,
 * else the built-in ones (the manage form's labels: 'Main Profile', 'Photographer').
 */
export function profileChoiceList(
  options: readonly { value: string; label: string }[] = PROFILE_OPTIONS,
): { name: string; value: string }[] {
  return options.map(({ label, value }) => ({ name: label, value }));
}

/** Asks for the profile with the manage form's choices ('Main Profile', 'Photographer'). */
export async function askProfile(
  options?: readonly { value: string; label: string }[],
): Promise<string> {
  const { select } = await import('@inquirer/prompts');
  return select<string>(
    {
      message: 'Profile',
      choices: profileChoiceList(options),
    },
    context,
  );
}

/** Asks for a line of text, checked as typed with `check` (which throws to refuse). */
export async function askText(
  message: string,
  check: (value: string) => void,
  defaultValue?: string,
): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  const answer = await input(
    { message, validate: validateWith(check), ...(defaultValue ? { default: defaultValue } : {}) },
    context,
  );
  return answer.trim();
}

/** Asks for a password, masked. */
export async function askPassword(message = 'Password'): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return password(
    { message, mask: '*', validate: (v: string) => v.length > 0 || 'Enter the password' },
    context,
  );
}

/** Asks a yes/no question; Enter takes `defaultValue`. */
export async function askConfirm(message: string, defaultValue = true): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message, default: defaultValue }, context);
}
