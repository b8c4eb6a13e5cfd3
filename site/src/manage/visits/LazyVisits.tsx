import { Suspense, lazy } from 'react';

// The Visits section loads only when /manage shows it to an owner: its code, the chart and the
// day arithmetic come in a chunk of their own, so /login and /go load none of it.
const VisitsSection = lazy(() => import('./VisitsSection.js'));

/** The owner's visit counts (15-minute buckets, no visitor data), loaded on demand. */
export function LazyVisits() {
  return (
    <Suspense
      fallback={
        <section className="card" aria-busy="true">
          <h2>Visits</h2>
          <p className="muted small">Loading the visit counts…</p>
        </section>
      }
    >
      <VisitsSection />
    </Suspense>
  );
}
