import type { ReactNode } from "react";

// A table wider than a phone scrolls inside its own box; the box takes keyboard focus so it can
// be scrolled without a mouse (WCAG 2.1.1), and is named for screen readers.
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
