import type { ReactNode } from 'react';
import type { Loaded } from './loader.js';
import { OutcomeLine, type Outcome } from './Outcome.js';

/** What a list says about itself while it is read, when it fails and when it is empty. */
export interface ListWords {
  /** The rows, as the sentences name them: `the members` ("Reading the members…"). */
  what: string;
  /** What an empty list says (`This card has no tokens.`, as `no-<name>`); none: an empty list. */
  empty?: string;
  /** The list's accessible name, when the section's heading does not say it all. */
  label?: string;
}

interface ListSectionProps<T> {
  /** The section's name: its class, `data-testid` and the id of its heading (`<name>-heading`). */
  name: string;
  /** The heading's words. */
  heading: string;
  /** A part of a section (an h3 in a plain block) rather than a section of the page (an h2). */
  part?: boolean;
  /**
   * Not a region named by its heading: for a heading that would also answer a field's name
   * (a region "Profiles" beside the set form's field "Profile", for voice control and for
   * finding the field by its label).
   */
  unnamed?: boolean;
  /** What stands between the heading and the list (what the section is for). */
  intro?: ReactNode;
  /** The rows as read. */
  loaded: Loaded<T[]>;
  words: ListWords;
  /** The class of the list: `member-list` unless given. */
  listClass?: string;
  /** Draws one row: an `<li>` with its key. */
  item: (row: T) => ReactNode;
  /** What the last change to the rows said, under the list. */
  outcome: Outcome | null;
  /** The outcome line's `data-testid`, for a line a test reads by itself. */
  outcomeTestId?: string;
  /** What follows the outcome (the form that adds a row). */
  children?: ReactNode;
}

/**
 * A section of rows read from the server: its heading, what it is for, the rows (or "Reading …",
 * "Could not read …: <why>", or what an empty list says), the outcome of the last change, and
 * what follows (the form that adds a row). Members, invitations, tokens and profiles are drawn
 * with it.
 */
export function ListSection<T>(props: ListSectionProps<T>) {
  const { name, heading, part, unnamed, intro, outcome, outcomeTestId, children } = props;
  const Heading = part ? 'h3' : 'h2';
  const body = (
    <>
      <Heading id={`${name}-heading`}>{heading}</Heading>
      {intro}
      <LoadedList {...props} />
      <OutcomeLine outcome={outcome} testId={outcomeTestId} />
      {children}
    </>
  );
  if (part) {
    return (
      <div className={name} data-testid={name}>
        {body}
      </div>
    );
  }
  return (
    <section
      className={`card ${name}`}
      aria-labelledby={unnamed ? undefined : `${name}-heading`}
      data-testid={name}
    >
      {body}
    </section>
  );
}

/** The rows, or what stands for them while they are read, when that failed, or when none. */
function LoadedList<T>({ name, loaded, words, listClass, item }: ListSectionProps<T>) {
  if (loaded.state === 'loading') {
    return <p className="muted small">Reading {words.what}…</p>;
  }
  if (loaded.state === 'error') {
    return (
      <p className="status error" role="alert">
        Could not read {words.what}: {loaded.error}
      </p>
    );
  }
  if (loaded.data.length === 0 && words.empty) {
    return (
      <p className="muted small" data-testid={`no-${name}`}>
        {words.empty}
      </p>
    );
  }
  return (
    <ul className={listClass ?? 'member-list'} aria-label={words.label}>
      {loaded.data.map(item)}
    </ul>
  );
}
