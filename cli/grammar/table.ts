// The command line's one grammar: every command, its arguments and options, and their help, in
// one table. commander's program is built from it (cli/grammar/commander.ts, used by
// cli/main.ts and each file of cli/commands/), and the entry point's recogniser reads it
// (cli/grammar/read-line.ts) to run a line without commander; tests/unit/grammar.test.ts holds
// the two to the same reading of every line the tests run. Adding a command, or an option of
// every command, is one entry here. This module imports nothing: the entry point loads it for
// every run, `--version` and `status` included.

/** An option: its flags as commander spells them, and its help. */
export interface OptionSpec {
  /** `--tz <zone>` takes a value; `--json` is a flag (true when given). */
  readonly flags: `--${string}`;
  readonly help: string;
  /** The line must give it (commander's `requiredOption`). */
  readonly required?: true;
  /** It may be given more than once: its value is then every value given, in order. */
  readonly repeatable?: true;
}

/** A positional argument: `<id>` is required, `[profile]` may be left out. */
export interface ArgumentSpec {
  readonly name: `<${string}>` | `[${string}]`;
  readonly help: string;
}

/** A command: a leaf with arguments and options, or a group of subcommands (`profile`). */
export interface CommandSpec {
  /** The one line `--help` lists it with. */
  readonly help: string;
  readonly arguments?: readonly ArgumentSpec[];
  readonly options?: readonly OptionSpec[];
  /** More help, printed after the options. */
  readonly after?: string;
  readonly commands?: Readonly<Record<string, CommandSpec>>;
}

/** The program's options: every command takes them, before or after its name. */
export const GLOBAL_OPTIONS = [
  { flags: '--api-url <url>', help: 'API base URL (overrides SUPABASE_URL)' },
  {
    flags: '--timeout <ms>',
    help: 'time-out of each request in milliseconds (default: 15000)',
  },
  {
    flags: '--allow-insecure-http',
    help: 'send your password and session over plain http: to another machine (a test on your LAN)',
  },
  {
    flags: '--card <slug>',
    help: 'the card to act on (overrides NAMECARD_CARD and `namecard card use`; default: your only card, else main)',
  },
] as const satisfies readonly OptionSpec[];

/** The program itself: its one line and the help after its options. */
export const PROGRAM = {
  name: 'namecard',
  help: "Point your name card's link at your main site or your photo section",
  after: `
Settings: flags first, then SUPABASE_URL, SUPABASE_ANON_KEY, NAMECARD_MAIN_URL,
NAMECARD_PHOTO_PATH, NAMECARD_SITE_URL and NAMECARD_BASE_PATH from the environment, then
what \`namecard login\` saved, then the local emulator. In CI, set NAMECARD_TOKEN (a card
token from \`namecard token create\`: its card, its role, no password), or NAMECARD_EMAIL and
NAMECARD_PASSWORD to sign in for each run. The card: --card, then NAMECARD_CARD, then
\`namecard card use\`, then your only card, then main where you are a member, then your
first card by slug; a card token acts on its own card only.`,
} as const;

/** `list`'s number of entries when `--limit` is not given (its help says so). */
export const LIST_DEFAULT_LIMIT = 20;

/** How long one of `doctor`'s probes (its redirects and its body included) may take, ms. */
export const DOCTOR_PROBE_TIMEOUT_MS = 5_000;

/**
 * The most of a body one of `doctor`'s probes reads, bytes: the doctor reads settings, JSON and
 * HTML pages of a few KB; a server sending more is not one of them, and must not take the memory.
 */
export const DOCTOR_PROBE_MAX_BYTES = 256 * 1024;

/** How long all of `doctor`'s probes may take together, ms. */
export const DOCTOR_TIME_LIMIT_MS = 20_000;

/** The form of `preview --at`. */
export const PREVIEW_AT_FORM = '"YYYY-MM-DD HH:MM"';

/** `set`'s profile, in help and in the message naming a missing one: the card's own list. */
export const SET_PROFILE_FORM = 'a profile (namecard profile list)';

const JSON_OPTION = { flags: '--json', help: 'print the result as one JSON document' } as const;

const TZ_SHOWN = {
  flags: '--tz <zone>',
  help: "the IANA time zone the times are shown in (default: this machine's)",
} as const;

const SITE_URL = {
  flags: '--site-url <url>',
  help: 'where the site is hosted (overrides NAMECARD_SITE_URL; default: http://127.0.0.1:4173/)',
} as const;

/** A subcommand of `profile`: its `--json` last, as commander lists the options. */
const withJson = <const S extends CommandSpec>(spec: S) =>
  ({ ...spec, options: [...(spec.options ?? []), JSON_OPTION] }) as const;

/** Every command, in the order `--help` lists them. */
export const COMMANDS = {
  login: {
    help: 'sign in and keep the session here',
    options: [
      {
        flags: '--email <email>',
        help: 'the email to sign in with (asked at a terminal when missing)',
      },
      { flags: '--password-stdin', help: 'read the password from stdin (for scripts)' },
      {
        flags: '--site-url <url>',
        help: 'where the site is hosted (the card link); kept with the session like --api-url',
      },
    ],
  },
  set: {
    help: "set the card's profile and end time",
    arguments: [
      { name: '[profile]', help: SET_PROFILE_FORM },
      { name: '[date]', help: 'the end date, YYYY-MM-DD' },
      { name: '[time]', help: 'the end time, HH:MM (24-hour)' },
    ],
    options: [
      {
        flags: '--from <start>',
        help: 'start at "YYYY-MM-DD HH:MM" instead of now (with --every: the first date)',
      },
      {
        flags: '--every <days>',
        help: 'repeat weekly on these days (sat, sat,sun, mon-fri); then give HH:MM-HH:MM',
      },
      { flags: '--until <date>', help: 'with --every: the last date, YYYY-MM-DD' },
      { flags: '--for <duration>', help: 'end after 90m, 2h, 3d… (instead of date and time)' },
      {
        flags: '--tz <zone>',
        help: "the IANA time zone of date and time (default: this machine's)",
      },
      JSON_OPTION,
    ],
    after: `
At a terminal, missing arguments are asked for. --from is read in the same time
zone as the end; --for counts from the start (or from now).

Examples:
  $ namecard set photo 2030-06-01 18:00
  $ namecard set photo 2030-06-01 18:00 --from "2030-06-01 09:00"
  $ namecard set photo --for 2h
  $ namecard set main 2030-06-01 09:30 --tz Europe/Berlin
  $ namecard set photo --every sat 10:00-18:00 --tz Europe/Berlin`,
  },
  profile: {
    help: "list, add, edit or remove the card's profiles (where each sends visitors)",
    commands: {
      list: withJson({ help: 'every profile, its label and destination' }),
      add: withJson({
        help: 'add a profile',
        arguments: [
          { name: '<name>', help: 'lowercase letters, digits and -, e.g. shop' },
          { name: '<url>', help: 'where it sends visitors, e.g. https://me.example/shop' },
        ],
        options: [{ flags: '--label <text>', help: 'what people see (default: the name)' }],
      }),
      edit: withJson({
        help: "change a profile's destination or label",
        arguments: [{ name: '<name>', help: 'the profile' }],
        options: [
          { flags: '--url <url>', help: 'the new destination' },
          { flags: '--label <text>', help: 'the new label' },
        ],
      }),
      remove: withJson({
        help: 'remove a profile (refused while an entry or a series in force or ahead names it)',
        arguments: [{ name: '<name>', help: 'the profile' }],
      }),
    },
  },
  end: {
    help: 'send visitors to the main site now (entries that start later stay)',
    options: [JSON_OPTION],
  },
  cancel: {
    help: 'cancel a scheduled or running entry, or a weekly series, for good (ids: namecard list)',
    arguments: [
      { name: '<id>', help: 'the entry or series id, as `namecard list` or `set --json` shows it' },
    ],
    options: [JSON_OPTION],
  },
  status: {
    help: 'show what visitors get now and the coming changes',
    options: [TZ_SHOWN, JSON_OPTION],
  },
  list: {
    help: 'list entries, newest first',
    options: [
      // The default is in the text: commander would quote a string default ("20").
      { flags: '--limit <n>', help: `how many entries to show (default: ${LIST_DEFAULT_LIMIT})` },
      TZ_SHOWN,
      JSON_OPTION,
    ],
  },
  preview: {
    help: 'show where the card sends visitors at a given time, by the server',
    options: [
      {
        flags: '--at <time>',
        help: `the moment, ${PREVIEW_AT_FORM} (repeat for several)`,
        required: true,
        repeatable: true,
      },
      { flags: '--tz <zone>', help: "the IANA time zone of --at (default: this machine's)" },
      JSON_OPTION,
    ],
  },
  calendar: {
    help: "the card's schedule as an iCalendar (.ics) file, to import into a calendar",
    options: [
      { flags: '--out <file>', help: 'write it to this file (default: print it)' },
      { flags: '--days <n>', help: 'how many days ahead (default: 90)' },
    ],
  },
  link: {
    help: "print the card's link, the address to put on the card",
    options: [
      SITE_URL,
      {
        flags: '--nfc',
        help: 'the link to write on an NFC tag (?via=nfc), so its visits count as NFC',
      },
      JSON_OPTION,
    ],
    after: `
The link is the site's Redirecting.. page: NAMECARD_SITE_URL (with NAMECARD_BASE_PATH) and go/.
\`namecard qr\` encodes it with ?via=qr, and --nfc prints it with ?via=nfc, so that
\`namecard stats\` tells the channels apart.`,
  },
  qr: {
    help: "show the card's link as a QR code, or save it as SVG or PNG",
    options: [
      SITE_URL,
      { flags: '--svg <file>', help: 'write it as an SVG image (for print) instead' },
      {
        flags: '--png <file>',
        help: 'write it as a PNG image (a name ending in .png) instead',
      },
      // QR_PNG_MIN_SIZE and QR_PNG_MAX_SIZE (shared/core/card-link.ts; tests/unit/grammar.test.ts
      // holds this text to them).
      {
        flags: '--size <px>',
        help: "the PNG's width in pixels, at least (1024 to 4096; default 1024)",
      },
      { flags: '--force', help: 'replace the file when it exists' },
    ],
    after: `
At a terminal the code is drawn black on white, readable on dark and light themes alike;
in a pipe without colours (unless FORCE_COLOR=1) it is drawn dark on light, as on paper.
QR codes by the qrcode package, error correction level M, with a 4-module quiet zone.
The PNG has whole pixels per module, so it may be a few pixels wider than --size.

Examples:
  $ namecard qr
  $ namecard qr --png card.png --site-url https://me.example/
  $ namecard qr --png poster.png --size 2048`,
  },
  stats: {
    help: "show the visit counts by day, profile and channel (the card's members)",
    options: [
      { flags: '--days <n>', help: 'how many days up to today (default: 30, at most 366)' },
      {
        flags: '--tz <zone>',
        help: "the IANA time zone the days are in (default: this machine's)",
      },
      JSON_OPTION,
    ],
    after: `
A visit is counted when the card's link (/go) is opened in a browser that runs its script;
the channel comes from the link: ?via=qr (the QR code), ?via=nfc (an NFC tag), none (link).

Examples:
  $ namecard stats
  $ namecard stats --days 7 --tz Asia/Kolkata --json`,
  },
  card: {
    help: 'list, add, choose, rename or remove your cards (each has its own link and people)',
    commands: {
      list: withJson({ help: 'your cards: slug, name, your role, and which is current' }),
      add: {
        help: 'add a card; you become its owner',
        arguments: [{ name: '<slug>', help: 'its name in its link (/go/?c=<slug>), e.g. studio' }],
        options: [{ flags: '--name <text>', help: 'what people see (default: the slug)' }],
      },
      use: {
        help: 'make a card the current one here (commands act on it unless told otherwise)',
        arguments: [{ name: '<slug>', help: 'the card' }],
      },
      rename: {
        help: "change a card's name (owners)",
        arguments: [
          { name: '<slug>', help: 'the card' },
          { name: '<name>', help: 'its new name' },
        ],
      },
      remove: {
        help: 'remove a card for good: its link then sends visitors to the main site (owners)',
        arguments: [{ name: '<slug>', help: 'the card' }],
        options: [{ flags: '--yes', help: 'remove without asking (for scripts)' }],
      },
    },
  },
  member: {
    help: "list, invite or remove the card's people, or change their role (owners); accept an invitation",
    commands: {
      list: withJson({ help: "the card's members: email and role (owners)" }),
      invite: withJson({
        help: 'make a one-time invitation code for a role, shown once (owners)',
        options: [
          { flags: '--role <role>', help: 'editor, viewer or owner', required: true },
          {
            flags: '--expires <duration>',
            help: 'how long the code works: 1h, 7d… (1 minute to 90 days; default: 7d)',
          },
        ],
      }),
      invites: withJson({
        help: "the card's open invitation codes: id, role, maker, expiry; never the code (owners)",
      }),
      'revoke-invite': {
        help: 'stop an open invitation code at once (owners)',
        arguments: [{ name: '<id>', help: 'its id, as `member invites` shows it' }],
      },
      accept: {
        help: 'join a card with an invitation code',
        arguments: [{ name: '<code>', help: 'the code, nci_…' }],
      },
      remove: {
        help: 'remove a member (owners), or leave the card (your own email)',
        arguments: [{ name: '<email>', help: "the member's email" }],
      },
      role: {
        help: "change a member's role (owners)",
        arguments: [
          { name: '<email>', help: "the member's email" },
          { name: '<role>', help: 'owner, editor or viewer' },
        ],
      },
    },
  },
  token: {
    help: "create, list or revoke the card's tokens for scripts and CI (owners)",
    commands: {
      create: withJson({
        help: 'make a token for scripts (NAMECARD_TOKEN), shown once (owners)',
        arguments: [{ name: '<name>', help: 'what it is for, e.g. github-actions' }],
        options: [
          {
            flags: '--role <role>',
            help: 'editor (set, end, cancel, series; the default) or viewer (read only)',
          },
          {
            flags: '--expires <duration>',
            help: 'how long it works: 30d, 12h… (1 minute to 10 years) or never (default: 90d)',
          },
        ],
      }),
      list: withJson({ help: "the card's tokens: name, role, creator, expiry, last use (owners)" }),
      revoke: {
        help: 'stop a token at once (owners)',
        arguments: [{ name: '<name>', help: "the token's name" }],
      },
    },
  },
  logout: { help: 'revoke the session and delete it here' },
  whoami: { help: 'show who calls (you, or a card token), where, and on which card' },
  doctor: {
    help: 'check the deployment end to end: API, database, sign-ups, account, site',
    options: [{ flags: '--json', help: 'print an array of { check, status, detail }' }],
    after: `
One line per check, each ok, warn or fail with what to do. Exit code 0 when nothing failed,
1 otherwise. Each request waits at most ${DOCTOR_PROBE_TIMEOUT_MS / 1000} s and reads at most ${DOCTOR_PROBE_MAX_BYTES / 1024} KiB,
follows redirects on the same origin only, and all checks end within ${DOCTOR_TIME_LIMIT_MS / 1000} s.`,
  },
} as const satisfies Readonly<Record<string, CommandSpec>>;

// What a line reads as, derived from the table, so each command's action is typed by its entry.

/** `api-url` → `apiUrl`: the key commander stores an option under. */
type Camel<S extends string> = S extends `${infer A}-${infer B}`
  ? `${A}${Capitalize<Camel<B>>}`
  : S;

type OptionKey<F extends string> = F extends `--${infer N} ${string}`
  ? Camel<N>
  : F extends `--${infer N}`
    ? Camel<N>
    : never;

type OptionValue<O extends OptionSpec> = O['flags'] extends `${string} <${string}>`
  ? O extends { repeatable: true }
    ? string[]
    : string
  : true;

/** The options a line gives, by key: a value as typed, `true` for a flag. */
export type OptionsOf<Os extends readonly OptionSpec[]> = {
  [O in Os[number] as OptionKey<O['flags']>]?: OptionValue<O>;
};

type ArgumentKey<N extends string> = N extends `<${infer K}>`
  ? K
  : N extends `[${infer K}]`
    ? K
    : never;

/** The arguments a line gives, by name: a required one always, an optional one when given. */
export type ArgumentsOf<As extends readonly ArgumentSpec[]> = {
  [A in As[number] as ArgumentKey<A['name']>]: A['name'] extends `<${string}>`
    ? string
    : string | undefined;
};

/** Each runnable command, by its words (`profile list`), with its entry. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends { commands: infer C }
    ? Leaves<C, `${Prefix}${K} `>
    : { path: `${Prefix}${K}`; spec: T[K] };
}[keyof T & string];

/** A runnable command's words: `set`, `profile list`. */
export type CommandPath = Leaves<typeof COMMANDS>['path'];

type SpecOf<P extends CommandPath> = Extract<Leaves<typeof COMMANDS>, { path: P }>['spec'];

/** The options every command takes. */
export type GlobalOptions = OptionsOf<typeof GLOBAL_OPTIONS>;

/**
 * A command line as read, by commander or by the entry point's recogniser alike: the command's
 * words, its arguments by name, and its options (the program's included) by key.
 */
export interface LineOf<P extends CommandPath> {
  command: P;
  args: SpecOf<P> extends { arguments: infer A extends readonly ArgumentSpec[] }
    ? ArgumentsOf<A>
    : Record<never, never>;
  options: (SpecOf<P> extends { options: infer O extends readonly OptionSpec[] }
    ? OptionsOf<O>
    : Record<never, never>) &
    GlobalOptions;
}

/** Any command line, as read. */
export type Line = { [P in CommandPath]: LineOf<P> }[CommandPath];

/** A line of any shape, as the generic code of the readers handles it. */
export interface AnyLine {
  command: string;
  args: Record<string, string | undefined>;
  options: Record<string, string | string[] | true | undefined>;
}

/** An option's key and whether it takes a value, read from its flags. */
export function optionShape(flags: string): { long: string; key: string; takesValue: boolean } {
  const [long = '', value] = flags.split(' ');
  const key = long.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { long, key, takesValue: value !== undefined };
}

/** An argument's name and whether the line must give it. */
export function argumentShape(name: string): { key: string; required: boolean } {
  return { key: name.slice(1, -1), required: name.startsWith('<') };
}
