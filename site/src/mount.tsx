import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/** Renders a page into the HTML's `#root`. */
export function mount(page: ReactNode): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  createRoot(root).render(<StrictMode>{page}</StrictMode>);
}
