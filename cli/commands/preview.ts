import { commandOf } from '../grammar/commander.js';
import { PREVIEW_AT_FORM } from '../grammar/table.js';
import { ApiError, InputError, NetworkError } from '../../shared/core/errors.js';
import { visitorsGet } from '../../shared/core/describe.js';
import {
  MAIN_PROFILE,
  narrowType,
  type ProfileLabels,
  type StoredType,
} from '../../shared/core/profiles.js';
import { INSTANTS_END_MS } from '../../shared/core/entry-rules.js';
import { targetUrl } from '../../shared/core/rules.js';
import { out, print, printJson } from '../terminal/output.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import { showType, terminalSafe } from '../terminal/terminal-safe.js';

/** The options of `namecard preview` (global ones included), as typed. */
export interface PreviewOptions {
  at: string[];
  tz?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/** What the server's rule answers at one instant (`public.namecard_preview`). */
export interface PreviewRow {
  at: number;
  id: number | null;
  type: string | null;
  stamp_start: number | null;
  stamp_end: number | null;
  series: boolean | null;
}

/** The server answers at most this many instants a call (namecard_preview's bound). */
const INSTANTS_PER_CALL = 10;
/** The instants anon may ask about (private.namecard_check_instant): a day back to 2199. */
const EARLIEST_MS_BACK = 86_400_000;
const WITHIN = 'a time from a day ago to the end of 2199';

/**
 * The server's answers for `instants` (epoch ms) on the card `card`, in their order: one request
 * with the anon key per INSTANTS_PER_CALL of them (anyone may ask about any card).
 *
 * @throws NetworkError when the server cannot be reached; ApiError for its refusal
 */
async function askServer(
  config: CliConfig,
  card: string,
  instants: number[],
): Promise<PreviewRow[]> {
  const url = `${config.supabaseUrl.replace(/\/+$/, '')}/rest/v1/rpc/namecard_preview`;
  const answers: PreviewRow[] = [];
  for (let i = 0; i < instants.length; i += INSTANTS_PER_CALL) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          apikey: config.anonKey,
          authorization: `Bearer ${config.anonKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ at_ms: instants.slice(i, i + INSTANTS_PER_CALL), card }),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (error) {
      throw new NetworkError(config.supabaseUrl, (error as Error).message);
    }
    const body = (await res.json().catch(() => null)) as unknown;
    if (!res.ok || !Array.isArray(body)) {
      const e = (body ?? {}) as { code?: string; message?: string };
      throw new ApiError(
        res.status,
        e.code ?? String(res.status),
        e.message ?? `HTTP ${res.status}`,
      );
    }
    answers.push(...(body as PreviewRow[]));
  }
  return answers;
}

/**
 * `namecard preview --at "YYYY-MM-DD HH:MM"`: where the run's card sends visitors at that
 * instant and why (which entry or series), decided by the server's rule (`namecard_preview`, one
 * request with the anon key for every ten `--at` given, at most 1000, each from a day ago to
 * the end of 2199; anyone may ask about any card). Local times follow the one-off entries' rules (a time skipped by the clocks
 * is refused; a repeated one is the first).
 *
 * @throws InputError (exit 2) for a bad `--at` or `--tz`, CardConflictError; ApiError,
 *   NetworkError (exit 1)
 */
export async function runPreview(options: PreviewOptions): Promise<void> {
  const settings = resolveConfig(options);
  const [time, format] = await Promise.all([
    import('../../shared/calendar/time.js'),
    import('../../shared/core/format.js'),
  ]);
  const zone =
    options.tz === undefined ? format.localTimeZone() : time.parseTimeZone(options.tz, '--tz');
  if (options.at.length > 1000) {
    throw new InputError('--at', 'given at most 1000 times', String(options.at.length));
  }
  const instants = options.at.map((text) => {
    const [date, clock, ...rest] = text.trim().split(/\s+/);
    if (date === undefined || clock === undefined || rest.length > 0) {
      throw new InputError('--at', PREVIEW_AT_FORM, text);
    }
    const ms = time.toEpochMs(date, clock, zone, { date: '--at', time: '--at' });
    // Checked here too, so that the refusal names `--at`, not the server's argument.
    if (ms < Date.now() - EARLIEST_MS_BACK || ms >= INSTANTS_END_MS) {
      throw new InputError('--at', WITHIN, text);
    }
    return ms;
  });
  const { onRunCardOrSignedOut } = await import('../session/cards.js');
  const { caller, card, config } = await onRunCardOrSignedOut(settings);
  const body = await askServer(config, card.slug, instants);
  const rows = body.map((row) => ({
    ...row,
    at: Number(row.at),
    id: row.id === null ? null : Number(row.id),
    stamp_start: row.stamp_start === null ? null : Number(row.stamp_start),
    stamp_end: row.stamp_end === null ? null : Number(row.stamp_end),
  }));
  const answers = rows.map((row) => ({
    ...(config.cardShown === undefined ? {} : { card: config.cardShown }),
    at: new Date(row.at).toISOString(),
    at_ms: row.at,
    time_zone: zone,
    profile: narrowType(row.type ?? MAIN_PROFILE.type),
    kind: row.id === null ? null : row.series ? 'series' : 'entry',
    id: row.id,
    from: row.stamp_start,
    until: row.stamp_end,
    target: targetUrl(row.type === null ? null : narrowType(row.type), config),
  }));
  if (options.json) {
    printJson(answers.length === 1 ? answers[0] : answers);
    return;
  }
  // Each profile by its display name (profileLabel; `the main site` for main), as everywhere.
  const { signedInLabels } = await import('../terminal/labels.js');
  const labels = await signedInLabels(
    caller,
    {},
    answers.map((a) => a.profile),
    card.slug,
  );
  const wall = (ms: number) => {
    const w = format.toWallClock(ms, zone);
    return `${w.date} ${w.time}`;
  };
  print(
    ...(config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`]),
    ...answers.map((a) => previewLine(a, labels, wall, zone)),
  );
}

/** One answer in words: `At 2030-06-01 12:00 Europe/Berlin: shop (Summer Sale), entry 4, until …`. */
function previewLine(
  a: {
    at_ms: number;
    profile: StoredType;
    kind: string | null;
    id: number | null;
    until: number | null;
  },
  labels: ProfileLabels,
  wall: (ms: number) => string,
  zone: string,
): string {
  const words = visitorsGet(a.profile, labels);
  const name = `${out.bold(showType(a.profile))}${words === a.profile ? '' : ` (${terminalSafe(words)})`}`;
  const why =
    a.id === null
      ? 'nothing is set then'
      : `${a.kind} ${a.id}${a.until === null ? '' : `, until ${wall(a.until)}`}`;
  return `At ${wall(a.at_ms)} ${zone}: ${name}, ${why}`;
}

export const previewCommand = commandOf('preview', ({ options }) =>
  runPreview({ ...options, at: options.at ?? [] }),
);
