import { ApiError, NamecardError } from '../../shared/core/errors.js';
import { AnswerTooLargeError } from './light-fetch.js';
import { readCapped, redirectTarget } from './transport.js';

// `namecard doctor`'s requests: each a plain GET of a URL the user's settings name (the API,
// the hosted site, its scripts, the main site), with the transport's own limits: the body read
// up to a cap (readCapped), redirects followed on the same origin only (redirectTarget), and
// every probe of a run ended by the run's own deadline. No retries: the doctor reports what a
// visitor would meet.

// The limits live in the command table, whose help states them (cli/grammar/table.ts).
import {
  DOCTOR_PROBE_MAX_BYTES as PROBE_MAX_BYTES,
  DOCTOR_PROBE_TIMEOUT_MS as PROBE_TIMEOUT_MS,
  DOCTOR_TIME_LIMIT_MS,
} from '../grammar/table.js';

export { DOCTOR_TIME_LIMIT_MS, PROBE_MAX_BYTES, PROBE_TIMEOUT_MS };

/** What one probe met: an answer (after same-origin redirects), or why there was none to use. */
export type Probe =
  | {
      answered: true;
      /** The URL that answered, after the redirects followed. */
      url: string;
      status: number;
      headers: Headers;
      /** The body (empty when the probe was asked not to read it). */
      text: string;
    }
  | { answered: false; reason: string };

/** How a probe is sent. */
export interface ProbeOptions {
  headers?: Record<string, string>;
  /** False: only the status and headers matter, the body is not read (a script, a style). */
  read?: boolean;
}

/** A run of probes under one deadline; {@link Prober.stop} ends it. */
export interface Prober {
  probe(url: string, options?: ProbeOptions): Promise<Probe>;
  /** Aborts when the run's time is up, with a NamecardError saying so as its reason. */
  signal: AbortSignal;
  /** Clears the deadline's timer (the run is over) so that nothing keeps the process waiting. */
  stop(): void;
}

/** The probe's own time-out, or the run's deadline: which one ended it. */
function whyNoAnswer(error: unknown, timedOut: boolean, deadline: AbortSignal): string {
  if (deadline.aborted) return (deadline.reason as Error).message;
  if (timedOut) return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  if (error instanceof AnswerTooLargeError) {
    return `an answer of more than ${PROBE_MAX_BYTES / 1024} KiB (HTTP ${error.status}), not read`;
  }
  if (error instanceof ApiError) return error.message;
  const e = error as { cause?: { code?: string; message?: string } };
  switch (e.cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return e.cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

/** One GET and the same-origin redirects after it, under `signal`. */
async function getFollowing(url: string, options: ProbeOptions, signal: AbortSignal) {
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const response = await fetch(target, {
      headers: options.headers,
      redirect: 'manual',
      signal,
    });
    // Same origin only, at most MAX_REDIRECTS: the transport's rule, named by the probe's URL.
    const next = redirectTarget(url, 'GET', target, response, redirects);
    if (next === undefined) {
      if (options.read === false) {
        await response.body?.cancel().catch(() => undefined);
        return { url: target, response, text: '' };
      }
      return { url: target, response, text: await readCapped(response, PROBE_MAX_BYTES) };
    }
    await response.body?.cancel().catch(() => undefined);
    target = next;
  }
}

/**
 * Starts a run of probes that all end at the latest `limitMs` from now.
 *
 * @param limitMs the run's time limit in milliseconds (default {@link DOCTOR_TIME_LIMIT_MS})
 */
export function startProbes(limitMs: number = DOCTOR_TIME_LIMIT_MS): Prober {
  const deadline = new AbortController();
  // A timer that keeps the process alive, unlike AbortSignal.timeout() (see sendOnce).
  const timer = setTimeout(
    () =>
      deadline.abort(
        new NamecardError(
          'time_limit',
          `not done when the checks' time limit of ${limitMs / 1000} s ran out`,
        ),
      ),
    limitMs,
  );
  const probe = async (url: string, options: ProbeOptions = {}): Promise<Probe> => {
    const own = new AbortController();
    const ownTimer = setTimeout(() => own.abort(), PROBE_TIMEOUT_MS);
    try {
      const signal = AbortSignal.any([own.signal, deadline.signal]);
      const { url: answeredBy, response, text } = await getFollowing(url, options, signal);
      return {
        answered: true,
        url: answeredBy,
        status: response.status,
        headers: response.headers,
        text,
      };
    } catch (error) {
      return { answered: false, reason: whyNoAnswer(error, own.signal.aborted, deadline.signal) };
    } finally {
      clearTimeout(ownTimer);
    }
  };
  return { probe, signal: deadline.signal, stop: () => clearTimeout(timer) };
}
