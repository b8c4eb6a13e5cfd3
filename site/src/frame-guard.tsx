import type { ReactNode } from 'react';
import { mount } from './mount.js';

/**
 * Whether this page is shown inside a frame of another origin: some window above it (its
 * parent, that one's parent, …) is not of this page's origin. Reading a cross-origin
 * window's `location.origin` throws, which also counts as foreign. A page framed only by
 * pages of its own origin, or not framed at all, is not.
 *
 * Why the page checks for itself: static hosts such as GitHub Pages cannot send
 * `Content-Security-Policy: frame-ancestors` or `X-Frame-Options`, so without this an
 * owner signed in on the site could be shown /manage inside another site's frame and be
 * tricked into clicking its buttons (clickjacking).
 */
export function framedByOtherOrigin(win: Window = window): boolean {
  let current: Window = win;
  while (current !== current.parent) {
    current = current.parent;
    try {
      if (current.location.origin !== win.location.origin) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** What a framed page shows instead of itself: nothing that acts, a way out. */
function FramedNotice() {
  return (
    <main className="page">
      <section className="card">
        <h1>Open this page in its own window</h1>
        <p>This page only works in its own window, not inside another site.</p>
        <p>
          <a href={window.location.href} target="_blank" rel="noopener noreferrer">
            Open it in its own window
          </a>
        </p>
      </section>
    </main>
  );
}

/**
 * Renders `page` into `#root`, unless the page is inside a frame of another origin: then
 * only a short notice with a link that opens the page in its own window, and nothing of
 * `page` (no form, no buttons) is rendered at all. For the pages that act: /login, /manage.
 */
export function mountUnframed(page: ReactNode): void {
  mount(framedByOtherOrigin() ? <FramedNotice /> : page);
}
