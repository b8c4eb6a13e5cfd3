// The profile table: the one place that names the profiles a card can point at. Everything
// else (config and targets, the CLI's choices and help, the manage form's options, every
// sentence that says what visitors get) is derived from it, in the way create-vite's
// FRAMEWORKS list drives its prompts and behaviour. Adding a profile is adding a row here (and
// to the migration's check constraint, which tests/unit/profiles.test.ts holds to this table).
// Dependency-free: /go and the status path import it.

/** One profile: what is stored, what people see, and where visitors are sent. */
export interface Profile {
  /** The value stored in `public.namecard.type` and typed on the command line. */
  readonly type: string;
  /** The label of the choice (manage form's option, CLI prompt): the spec's option label. */
  readonly label: string;
  /** What visitors get, in the owner's words: `the main site`, `Photographer`. */
  readonly visitorsGet: string;
  /** The setting (environment variable) that says where this profile sends visitors. */
  readonly setting: string;
  /** The setting's field in the validated config. */
  readonly configKey: string;
  /**
   * The setting's default. The first profile's is an absolute URL (the main site); every
   * other profile's is a path resolved under it.
   */
  readonly defaultValue: string;
}

/**
 * The profiles, in the order they are offered. The first is the main site: where visitors go
 * when nothing is active, or when a stored type is not in this table.
 */
export const PROFILES = [
  {
    type: 'main',
    label: 'Main Profile',
    visitorsGet: 'the main site',
    setting: 'NAMECARD_MAIN_URL',
    configKey: 'mainUrl',
    defaultValue: 'http://127.0.0.1:4174/',
  },
  {
    type: 'photo',
    label: 'Photographer',
    visitorsGet: 'Photographer',
    setting: 'NAMECARD_PHOTO_PATH',
    configKey: 'photoPath',
    defaultValue: 'photo',
  },
] as const satisfies readonly Profile[];

/** One row of {@link PROFILES}. */
export type ProfileRow = (typeof PROFILES)[number];

/** A profile's stored type: `main` or `photo`. */
export type ProfileType = ProfileRow['type'];

/** The settings of the profiles' targets (`NAMECARD_MAIN_URL`, `NAMECARD_PHOTO_PATH`). */
export type ProfileSetting = ProfileRow['setting'];

/** The main site's profile: the first row. */
export const MAIN_PROFILE = PROFILES[0];

/** The profiles whose target is a path under the main site (every row but the first). */
export const SUB_PATH_PROFILES = PROFILES.slice(1) as readonly Exclude<
  ProfileRow,
  typeof MAIN_PROFILE
>[];

/** The stored types, in order. */
export const PROFILE_TYPES: readonly ProfileType[] = PROFILES.map((p) => p.type);

/** Labels by type, as the manage form's options and the CLI's prompt show them. */
export const PROFILE_LABELS = Object.fromEntries(
  PROFILES.map((p) => [p.type, p.label]),
) as Readonly<Record<ProfileType, string>>;

/**
 * The choices both faces offer, in order: the manage form's `<option value label>` and the
 * CLI prompt's choices (`Main Profile`, `Photographer`).
 */
export const PROFILE_OPTIONS: readonly { readonly value: ProfileType; readonly label: string }[] =
  PROFILES.map((p) => ({ value: p.type, label: p.label }));

/**
 * A stored type that is not in the table (the database's check constraint refuses these; a
 * row from an older or foreign server may still carry one). It stays the string the server
 * sent, so output shows it as it is, but it is typed apart: no code can use it as a profile
 * without {@link readProfile}.
 */
export type UnknownType = string & { readonly unknownProfile: true };

/** A row's `type` once read at the boundary: a profile of the table, or an unknown one. */
export type StoredType = ProfileType | UnknownType;

/** True when `value` is one of {@link PROFILE_TYPES} (exactly, case included). */
export function isProfileType(value: unknown): value is ProfileType {
  return PROFILES.some((p) => p.type === value);
}

/**
 * Narrows a `type` as it came from the API: a profile of the table, or an {@link UnknownType}
 * (a non-string is kept as its JSON text, never read as a profile). Used once, where rows enter (shared/core/lookup.ts,
 * shared/supabase/data.ts).
 */
export function narrowType(raw: unknown): StoredType {
  if (isProfileType(raw)) return raw;
  if (typeof raw === 'string') return raw as UnknownType;
  // A non-string (an array, an object, a number) is never a profile, even when its text would
  // read like one (`['photo']` as text is `photo`): it is kept as its JSON, which cannot be.
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined;
  }
  return (text ?? Object.prototype.toString.call(raw)) as UnknownType;
}

/** The table's row for a profile type. */
function profileOf(type: ProfileType): ProfileRow {
  return PROFILES.find((p) => p.type === type) ?? MAIN_PROFILE;
}

/** What a stored type (or none) means for the people who see it. */
export interface ProfileReading {
  /** The profile visitors are sent to: the type's own, or the main site for none or an unknown. */
  profile: ProfileRow;
  /** The label shown for it: the table's, or an unknown type as it is, or the main label for none. */
  label: string;
  /** What visitors get, in words: the table's, or an unknown type as it is. */
  visitorsGet: string;
}

/**
 * The one place that handles a type the table does not know, and no type at all: visitors
 * are sent to the main site (the spec: anything but a known profile means main), while the
 * words show the unknown type as it was stored, so the owner can see what is there.
 *
 * @param type a row's narrowed type, or null/undefined when nothing is active
 */
export function readProfile(type: StoredType | null | undefined): ProfileReading {
  if (type == null) {
    return {
      profile: MAIN_PROFILE,
      label: MAIN_PROFILE.label,
      visitorsGet: MAIN_PROFILE.visitorsGet,
    };
  }
  if (isProfileType(type)) {
    const profile = profileOf(type);
    return { profile, label: profile.label, visitorsGet: profile.visitorsGet };
  }
  return { profile: MAIN_PROFILE, label: type, visitorsGet: type };
}

/**
 * Labels of profiles by name (`{ shop: 'Summer Sale' }`), as the server answers them from the
 * profile rows: the status's `labels` (the profiles its timeline names), the owner's profile list
 * ({@link labelsOf}).
 */
export type ProfileLabels = Readonly<Record<string, string>>;

/**
 * A profile's display name: the one place every face (the CLI's lines, `stats`, the .ics file,
 * /manage's lists, legend and Visits box) gets the name people see for a profile. Its row's
 * label when `labels` has it (`Summer Sale`), else the built-in label (`Photographer`, `Main
 * Profile`: the spec's, until the server says otherwise), else the name as it is stored.
 *
 * @param type a stored type (a profile's name)
 * @param labels labels by profile name, as the server answers them ({} when unknown)
 * @example profileLabel('shop', { shop: 'Summer Sale' }) // → 'Summer Sale'
 */
export function profileLabel(type: StoredType | string, labels: ProfileLabels = {}): string {
  return Object.hasOwn(labels, type) ? labels[type]! : readProfile(type as StoredType).label;
}

/**
 * A profile's display name with its name, for a line that is read away from the card (the
 * .ics file's events): `Summer Sale (shop)`, or only the name when the label is the name
 * (`shop`, never `shop (shop)`).
 *
 * @param type a stored type
 * @param labels labels by profile name ({@link profileLabel})
 */
export function labelWithName(type: StoredType | string, labels: ProfileLabels = {}): string {
  const label = profileLabel(type, labels);
  return label === type ? type : `${label} (${type})`;
}

/**
 * The labels of a list of profile rows, by name: what {@link profileLabel} reads.
 *
 * @param rows profile rows (`{ name, label }`), e.g. the owner's profile list
 */
export function labelsOf(rows: readonly { name: string; label: string }[]): ProfileLabels {
  return Object.fromEntries(rows.map((row) => [row.name, row.label]));
}

/**
 * The choices as one phrase, for help and messages: `main or photo`, `main, photo or shop`.
 *
 * @param names the profiles' names in order; the built-in ones (main, photo) by default
 */
export function profileChoices(names: readonly string[] = PROFILE_TYPES): string {
  return names.length <= 2
    ? names.join(' or ')
    : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The form of a profile's name, as the database checks it too (the profiles migration). */
export const PROFILE_NAME_FORM = /^[a-z][a-z0-9-]{0,31}$/;

/** The longest label, in characters (the database checks it too). */
const MAX_LABEL_LENGTH = 60;

/** The longest destination URL, in characters (the database checks it too). */
const MAX_URL_LENGTH = 2048;

/** A profile field that is not of its form: the field's name, the expected form, the message. */
export interface ProfileFieldProblem {
  field: string;
  expected: string;
  /** "`field` must be …", without the value (the caller echoes it safely). */
  message: string;
  /** What to do about it, when there is more to say than the form. */
  hint?: string;
}

const NAME_EXPECTED =
  'a name of lowercase letters, digits and -, starting with a letter, at most 32 characters (e.g. shop)';
const URL_EXPECTED =
  'an absolute https: or http: URL with no user or password, at most 2,048 characters (e.g. https://me.example/shop)';

/**
 * Checks a new profile's name against the form the database enforces.
 *
 * @param name the name as typed
 * @param field the field's name in messages (`name`)
 * @returns null when it is of the form, else what is wrong
 */
export function checkProfileName(name: string, field = 'name'): ProfileFieldProblem | null {
  return PROFILE_NAME_FORM.test(name)
    ? null
    : { field, expected: NAME_EXPECTED, message: `\`${field}\` must be ${NAME_EXPECTED}` };
}

/**
 * Checks a label: 1 to 60 characters, no surrounding space (the database's check).
 *
 * @param label the label as typed
 * @param field the field's name in messages (`--label`)
 * @returns null when it is of the form, else what is wrong
 */
export function checkProfileLabel(label: string, field = '--label'): ProfileFieldProblem | null {
  const length = [...label].length;
  const expected = `1 to ${MAX_LABEL_LENGTH} characters with no space around them`;
  return length >= 1 && length <= MAX_LABEL_LENGTH && label === label.trim()
    ? null
    : { field, expected, message: `\`${field}\` must be ${expected}` };
}

/**
 * Checks a destination URL: its form (absolute http(s), no credentials, at most 2,048
 * characters, as the database checks) and that its origin is one the deployed /go follows
 * (`NAMECARD_ALLOWED_ORIGINS`), so that nothing is stored that visitors would never reach.
 *
 * @param url the URL as typed
 * @param allowed the allowed origins (`https://me.example`), or `'*'` for any
 * @param field the field's name in messages (`url`, `--url`)
 * @returns null when /go would follow it, else what is wrong (naming the allowed origins)
 */
export function checkDestination(
  url: string,
  allowed: readonly string[] | '*',
  field = 'url',
): ProfileFieldProblem | null {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.username ||
    parsed.password ||
    url.length > MAX_URL_LENGTH ||
    !/^https?:\/\/[^/?#@\s]+([/?#]\S*)?$/i.test(url)
  ) {
    return { field, expected: URL_EXPECTED, message: `\`${field}\` must be ${URL_EXPECTED}` };
  }
  if (allowed !== '*' && !allowed.includes(parsed.origin)) {
    const list = allowed.join(', ');
    return {
      field,
      expected: `a URL on an allowed origin (${list})`,
      message: `\`${field}\` must be on an origin the card's /go follows (${list})`,
      hint: `add ${parsed.origin} to NAMECARD_ALLOWED_ORIGINS and rebuild the site first`,
    };
  }
  return null;
}
