import { fetchActiveEntry, fetchNextEntry } from '../shared/core/lookup.js';
import { targetUrl } from '../shared/core/rules.js';
import { profileLabel } from '../shared/core/types.js';
import { out, print, printJson } from './output.js';
import { resolveConfig } from './settings.js';
import { createLightTransport } from './transport.js';

/** The options of `namecard status` (global ones included), as typed. */
export interface StatusOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard status`: what visitors get now and the next scheduled change, read from the
 * views `namecard_active` and `namecard_next` with the anon key (no sign-in), both at once.
 * The server's clock decides; no supabase-js, no Temporal. A plain function, not a commander
 * action, so the entry point can run it without loading commander (cli/status-args.ts); the
 * commander command calls it too.
 *
 * @throws NetworkError, TimeoutError, ApiError (exit 1); InputError for a bad flag (exit 2)
 */
export async function runStatus(options: StatusOptions): Promise<void> {
  const config = resolveConfig(options);
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  const lookup = {
    supabaseUrl: config.supabaseUrl,
    anonKey: config.anonKey,
    fetch: transport.fetch,
  };
  const [active, next] = await transport.guard(() =>
    Promise.all([fetchActiveEntry(lookup), fetchNextEntry(lookup)]),
  );
  const now = Date.now();
  const target = targetUrl(active?.type, config);
  if (options.json) {
    printJson({
      active,
      target,
      ends_at: active ? new Date(active.stamp_end).toISOString() : null,
      remaining_ms: active ? active.stamp_end - now : null,
      next,
    });
    return;
  }
  const { formatDuration, formatStamp } = await import('../shared/core/format.js');
  const lines = active
    ? [
        `Active: ${out.bold(active.type)} (${profileLabel(active.type)}) until ${formatStamp(active.stamp_end)}, ${formatDuration(active.stamp_end - now)} left`,
        `Visitors go to ${out.cyan(target)}`,
      ]
    : [`Nothing is active: visitors go to the main site ${out.cyan(target)}`];
  if (next?.stamp_start != null) {
    const start = next.stamp_start;
    lines.push(
      `Next: ${out.bold(next.type)} (${profileLabel(next.type)}) from ${formatStamp(start)} until ${formatStamp(next.stamp_end)}, in ${formatDuration(start - now)}`,
    );
  }
  print(...lines);
}
