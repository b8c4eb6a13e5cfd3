import { RestError } from './errors.js';
import type { RoutineInfo } from '../catalog/schema-cache.js';
import type { CallArgs } from './sql.js';

/**
 * PostgREST's functions endpoint (/rpc/<fn>): how a request's arguments are read,
 * which overload they call, and the PGRST202/PGRST203 answers when none or several
 * fit. Own code: PostgREST's resolution (Plan.hs `findProc`, ApiRequest/Payload.hs,
 * Error.hs `NoRpc`) is Haskell; the rules are restated here from it and from
 * docs/references/api/functions.rst.
 */

/** The raw media types a single unnamed parameter accepts, by parameter type. */
const RAW_MEDIA = { 'text/plain': 'text', 'text/xml': 'xml', 'application/octet-stream': 'bytea' };
type RawMedia = keyof typeof RAW_MEDIA;

/** A call's arguments as read from the request, before an overload is chosen. */
export type RpcPayload =
  /** POST application/json (or no Content-Type): `keys` of an object body. */
  | { kind: 'json'; body: string; keys: string[] }
  /** GET/HEAD query parameters, or POST application/x-www-form-urlencoded fields. */
  | { kind: 'query' | 'form'; values: Map<string, string[]> }
  /** POST text/plain, text/xml or application/octet-stream: the raw body. */
  | { kind: 'raw'; media: RawMedia; body: string | Buffer };

/**
 * Reads a POST's arguments by its Content-Type, as PostgREST does: a JSON object's
 * keys are named arguments (an empty body is `{}`; any other JSON value is for a
 * single unnamed json/jsonb parameter), form fields are named arguments, and a
 * text/plain, text/xml or octet-stream body is the single unnamed parameter's value.
 * @param contentType the header; missing means application/json.
 * @param raw the body: bytes for application/octet-stream, else text.
 * @throws RestError 400 PGRST102 for malformed JSON or another Content-Type.
 */
export function readPostPayload(contentType: string | undefined, raw: string | Buffer): RpcPayload {
  const media = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (media in RAW_MEDIA) return { kind: 'raw', media: media as RawMedia, body: raw };
  const body = raw.toString();
  if (media === 'application/json') {
    if (body.trim() === '') return { kind: 'json', body: '{}', keys: [] };
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json');
    }
    return { kind: 'json', body, keys: jsonKeys(value) };
  }
  if (media === 'application/x-www-form-urlencoded') {
    return { kind: 'form', values: groupParams(new URLSearchParams(body)) };
  }
  throw new RestError(400, 'PGRST102', `Content-Type not acceptable: ${media}`);
}

/**
 * The argument names of a JSON body: an object's keys; for an array (PostgREST's call per
 * element), the keys every element shares; none for any other value.
 * @throws RestError 400 PGRST102 "All object keys must match" (PostgREST 12's answer) for an
 *   array whose elements are not all objects with the same keys.
 */
function jsonKeys(value: unknown): string[] {
  const isObject = (v: unknown): v is object =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(value)) return Object.keys(value);
  if (!Array.isArray(value)) return [];
  const keys = value.map((v) => (isObject(v) ? Object.keys(v).sort().join(',') : undefined));
  if (keys.some((k) => k === undefined || k !== keys[0])) throw ALL_KEYS_MUST_MATCH();
  return isObject(value[0]) ? Object.keys(value[0]) : [];
}

/** PostgREST 12's answer to a JSON array body whose elements differ in keys (or are no objects). */
export const ALL_KEYS_MUST_MATCH = () =>
  new RestError(400, 'PGRST102', 'All object keys must match');

/**
 * The most fields one form or query may hold. PostgREST sets no such number, but its form and
 * query parsing stays linear; this emulator runs on one event loop and refuses a flood of
 * fields before working on them (a function here has at most a few parameters).
 */
export const MAX_PARAMS = 1000;

/**
 * Values by name, repeated names keeping every value in order. Linear in the number of fields
 * (each value is appended in place).
 *
 * @param entries name-value pairs, e.g. a URLSearchParams
 * @returns the values of each name, in order
 * @throws RestError 400 PGRST102 beyond {@link MAX_PARAMS} fields
 */
export function groupParams(entries: Iterable<[string, string]>): Map<string, string[]> {
  const values = new Map<string, string[]>();
  let count = 0;
  for (const [k, v] of entries) {
    count += 1;
    if (count > MAX_PARAMS) {
      throw new RestError(400, 'PGRST102', `Too many parameters: at most ${MAX_PARAMS} fields`);
    }
    const list = values.get(k);
    if (list) list.push(v);
    else values.set(k, [v]);
  }
  return values;
}

/** The argument names PostgREST matches against parameter names. */
export function payloadKeys(payload: RpcPayload): string[] {
  if (payload.kind === 'json') return payload.keys;
  if (payload.kind === 'raw') return [];
  return [...payload.values.keys()];
}

const isPost = (p: RpcPayload) => p.kind !== 'query';

/**
 * Chooses the overload a request calls (PostgREST's `findProc`): one whose required
 * parameters are all given and whose other given names are optional parameters
 * (a function without parameters only when no argument is given, and not for a raw
 * body); failing that, on POST, one whose single unnamed parameter takes the body
 * as it is (json/jsonb for JSON, text for text/plain, xml, bytea).
 * @returns the routine, or undefined when none fits.
 * @throws RestError 300 PGRST203 when several overloads fit.
 */
export function chooseRoutine(
  overloads: RoutineInfo[],
  payload: RpcPayload,
): RoutineInfo | undefined {
  const keys = new Set(payloadKeys(payload));
  const matches = overloads.filter((r) => matchesParams(r, keys, payload));
  const fallbacks = overloads.filter(
    (r) => !matchesParams(r, keys, payload) && takesWholeBody(r, payload),
  );
  const candidates = matches.length > 0 ? matches : fallbacks;
  if (candidates.length > 1) throw ambiguous(candidates);
  return candidates[0];
}

function matchesParams(r: RoutineInfo, keys: Set<string>, payload: RpcPayload): boolean {
  if (r.params.length === 0) return keys.size === 0 && payload.kind !== 'raw';
  const required = r.params.filter((p) => p.required).map((p) => p.name);
  const optional = new Set(r.params.filter((p) => !p.required).map((p) => p.name));
  const rest = [...keys].filter((k) => !optional.has(k));
  return rest.length === required.length && required.every((k) => keys.has(k));
}

function takesWholeBody(r: RoutineInfo, payload: RpcPayload): boolean {
  const [only, ...others] = r.params;
  if (!only || others.length > 0 || only.name !== '' || !isPost(payload)) return false;
  if (payload.kind === 'json') return only.type === 'json' || only.type === 'jsonb';
  return payload.kind === 'raw' && only.type === RAW_MEDIA[payload.media];
}

function ambiguous(candidates: RoutineInfo[]): RestError {
  const list = candidates
    .map(
      (r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`,
    )
    .join(', ');
  return new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${list}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

/**
 * The arguments of the chosen routine's call: the single unnamed parameter takes
 * the whole body; otherwise the named arguments as they came.
 */
export function callArgs(routine: RoutineInfo, payload: RpcPayload): CallArgs {
  const [only] = routine.params;
  const single = routine.params.length === 1 && only?.name === '';
  if (payload.kind === 'raw') {
    // A raw body matched a function whose parameters are all optional: none is given.
    return single ? { kind: 'single', value: payload.body } : { kind: 'direct', values: new Map() };
  }
  if (payload.kind === 'json') {
    return single
      ? { kind: 'single', value: payload.body }
      : { kind: 'json', body: payload.body, keys: payload.keys };
  }
  return { kind: 'direct', values: payload.values };
}

/**
 * PostgREST's 404 PGRST202 for a name and argument set that match no function
 * (Error.hs `NoRpc`): the message names the function and the argument names
 * (sorted), the details say what was searched for, and the hint suggests the
 * nearest overload's parameters, or a similar function name when the name itself
 * is unknown (none for a raw body).
 * @param overloads the name's overloads the caller may see (none: unknown name).
 * @param otherNames names of the schema's other functions, for the name hint.
 */
export function noRoutine(
  schema: string,
  name: string,
  payload: RpcPayload,
  overloads: RoutineInfo[],
  otherNames: string[],
): RestError {
  const keys = [...new Set(payloadKeys(payload))].sort();
  const func = `${schema}.${name}`;
  const raw = payload.kind === 'raw';
  const withParams =
    keys.length === 0
      ? ' without parameters'
      : ` with parameter${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
  let searched = withParams;
  if (raw) searched = ` with a single unnamed ${RAW_MEDIA[payload.media]} parameter`;
  else if (payload.kind === 'json') searched += ' or with a single unnamed json/jsonb parameter';
  const message = `Could not find the function ${func}${raw ? '' : keys.length === 0 ? ' without parameters' : `(${keys.join(', ')})`} in the schema cache`;
  const details = `Searched for the function ${func}${searched}, but no matches were found in the schema cache.`;
  let hint: string | null = null;
  if (!raw) {
    const suggestion =
      overloads.length > 0
        ? closest(
            overloads.map((r) => paramList(r.params.map((p) => p.name))),
            paramList(keys),
            PARAMS_MIN_SCORE,
          )
        : closest(
            otherNames.filter((n) => n !== name),
            name,
            NAME_MIN_SCORE,
          );
    if (suggestion !== undefined) {
      hint = `Perhaps you meant to call the function ${schema}.${overloads.length > 0 ? name : ''}${suggestion}`;
    }
  }
  return new RestError(404, 'PGRST202', message, details, hint);
}

/** `(a, b, c)`, sorted, the form PostgREST compares parameter lists in. */
const paramList = (names: string[]) => `(${[...names].sort().join(', ')})`;

/**
 * The minimum similarity of a hint, for a function name and for a parameter list alike: PostgREST
 * 12 takes the best match of Haskell's fuzzyset (`getOne`), whose minimum score is 0.33.
 */
const NAME_MIN_SCORE = 0.33;
const PARAMS_MIN_SCORE = 0.33;

/**
 * A string as fuzzyset compares it: lower case, every character but letters, digits, spaces and
 * commas removed (so an unnamed parameter's `()` is empty, and matches nothing).
 */
const fuzzyNormal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}\s,]/gu, '');

/**
 * The candidate most similar to `target` with at least `minScore`, by Levenshtein
 * similarity (1 − distance / longer length) of the normalised strings (fuzzyNormal); an empty
 * one matches nothing. PostgREST uses a fuzzy set (n-gram candidates rescored by Levenshtein);
 * this keeps its normalisation and rescoring, so a hint may differ from PostgREST's for unusual
 * names. Own code: a dozen lines, where a dependency would be needed only for this hint.
 */
function closest(candidates: string[], target: string, minScore: number): string | undefined {
  let best: { text: string; score: number } | undefined;
  const b = fuzzyNormal(target);
  for (const text of candidates) {
    const a = fuzzyNormal(text);
    if (a === '' || b === '') continue;
    const score = 1 - levenshtein(a, b) / Math.max(a.length, b.length);
    if (score >= minScore && (!best || score > best.score)) best = { text, score };
  }
  return best?.text;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(row[j - 1]! + 1, prev[j]! + 1, prev[j - 1]! + cost);
    }
    prev = row;
  }
  return prev[b.length]!;
}
