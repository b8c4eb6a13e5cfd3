import { cardName, may, useCardScope } from './card/card-scope.js';
import { EntriesSection } from './entries/EntriesSection.js';
import { CardLink, OwnerSections, ProfilesSection, VisitsSection } from './later/parts.js';
import { useProfiles } from './profiles/useProfiles.js';

/**
 * One card's page, its sections in order: the card (its name, the timeline, the set form, the
 * series and the history), Profiles (owners), Visits, the card's link, and Members and Tokens
 * (owners). Each section acts on the card and offers what the user's role on it may do.
 */
export function CardPage() {
  const scope = useCardScope();
  // Read here, so that the set form's choices and the Profiles section share one list.
  const profiles = useProfiles(scope);
  const owner = may(scope, 'owner');
  return (
    <>
      <section className="card your-card" data-testid="your-card" aria-labelledby="card-heading">
        <CardHeading />
        <EntriesSection profiles={profiles} />
      </section>
      {owner && <ProfilesSection state={profiles} reload={profiles.reload} />}
      <VisitsSection />
      <CardLink />
      {owner && <OwnerSections />}
    </>
  );
}

/** The card's name as the page's heading, with its slug and the user's role on it. */
function CardHeading() {
  const scope = useCardScope();
  return (
    <h1 id="card-heading">
      {cardName(scope)}{' '}
      <span className="muted small card-slug">
        ({scope.slug}, {scope.role})
      </span>
    </h1>
  );
}
