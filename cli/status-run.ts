import { fetchActiveEntry } from '../shared/core/lookup.js';
import { targetUrl } from '../shared/core/rules.js';
import { PROFILE_LABELS, isProfileType } from '../shared/core/types.js';
import { out, print, printJson } from './output.js';
import { resolveConfig } from './settings.js';
import { createTransport } from './transport.js';

/** The options `namecard status` takes, its own and the program's. */
export interface StatusOptions {
  json?: boolean;
  apiUrl?: string;
  /** `--timeout <ms>`, as typed. */
  timeout?: string;
}

/**
 * `namecard status`: what visitors get now. A plain function, not a commander action, so the
 * entry point can run it without loading commander (cli/status-args.ts); the commander
 * command calls it too.
 */
export async function runStatus(options: StatusOptions): Promise<void> {
  const config = resolveConfig(options);
  // The Redirecting.. page's own lookup with the anon key: no sign-in, no supabase-js; the
  // CLI's transport adds its retries, time-out and messages.
  const transport = createTransport(config.supabaseUrl, config.timeoutMs, { light: true });
  const now = Date.now();
  const active = await transport.guard(() =>
    fetchActiveEntry({
      supabaseUrl: config.supabaseUrl,
      anonKey: config.anonKey,
      now,
      fetch: transport.fetch,
    }),
  );
  const target = targetUrl(active?.type, config);
  if (options.json) {
    printJson({
      active,
      target,
      ends_at: active ? new Date(active.stamp_end).toISOString() : null,
      remaining_ms: active ? active.stamp_end - now : null,
    });
    return;
  }
  if (!active) {
    print(`Nothing is active: visitors go to the main site ${out.cyan(target)}`);
    return;
  }
  const { formatDuration, formatStamp } = await import('../shared/core/format.js');
  const label = isProfileType(active.type) ? ` (${PROFILE_LABELS[active.type]})` : '';
  print(
    `Active: ${out.bold(active.type)}${label} until ${formatStamp(active.stamp_end)}, ${formatDuration(active.stamp_end - now)} left`,
    `Visitors go to ${out.cyan(target)}`,
  );
}
