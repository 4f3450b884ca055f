// The funding page's one stylesheet, served at /fund/assets/fund.css (the page's CSP allows no
// inline style). Colours meet WCAG AA contrast on their backgrounds; the layout is one column
// that widens up to a reading width, so a phone and a desktop read the same page.
export const FUND_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: #f6f7f9; color: #1b1f24; }
main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
section, .notice { background: #fff; border: 1px solid #c9ced6; border-radius: 0.5rem; padding: 1rem; margin: 0 0 1rem; }
.notice { border-left: 0.35rem solid #1f5fbf; }
.notice.problem { border-left-color: #a4262c; }
ul.offers { list-style: none; padding: 0; margin: 0; }
ul.offers li { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; padding: 0.75rem 0; border-top: 1px solid #e1e4e8; }
ul.offers li:first-child { border-top: 0; }
.offer-text { flex: 1 1 14rem; }
.offer-name { font-weight: 600; }
.price { font-variant-numeric: tabular-nums; font-weight: 600; }
form { margin: 0; }
button, a.button { font: inherit; font-weight: 600; border-radius: 0.4rem; padding: 0.6rem 1rem; min-height: 2.75rem; cursor: pointer; border: 2px solid #174ea6; background: #174ea6; color: #fff; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: #174ea6; }
button:focus-visible, a:focus-visible { outline: 3px solid #e8a200; outline-offset: 2px; }
a { color: #174ea6; }
.muted { color: #4a525c; }
@media (max-width: 30rem) { main { padding: 0.75rem; } ul.offers li { align-items: stretch; } ul.offers form, ul.offers button { width: 100%; } }
`;
