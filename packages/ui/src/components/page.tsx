/** The controls and frames every screen uses: labelled fields, errors in place, masked values, the HCL editor. @module */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { Link } from './link.js';

export interface Crumb {
  label: string;
  to: string;
}

/** A screen's frame: where it is (breadcrumbs), its heading (also the window title), its actions. */
export function Page(p: { title: string; crumbs?: Crumb[]; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${p.title} · Ward`;
  }, [p.title]);
  return (
    <section class="page" aria-labelledby="page-title">
      {p.crumbs && p.crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" class="crumbs">
          <ol>
            {p.crumbs.map((c) => (
              <li key={c.to}>
                <Link to={c.to}>{c.label}</Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {p.title}
        </h1>
        {p.actions && <div class="actions">{p.actions}</div>}
      </div>
      {p.children}
    </section>
  );
}

/** A table that may be wider than a phone: it scrolls sideways inside its region, and says so. */
export function TableRegion(p: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll
    <section class="table-region" aria-label={`${p.label} (scrolls sideways)`} tabIndex={0}>
      {p.children}
    </section>
  );
}

export function Loading() {
  return <output class="loading">Loading…</output>;
}
