/**
 * The one stylesheet: served from our own origin so the pages' CSP can forbid inline styles.
 * Mobile first: nothing is wider than the screen at 390 px; wide tables scroll inside their
 * own region rather than the page.
 */
export const APP_CSS = `
*, *::before, *::after { box-sizing: border-box; }
:root { font-family: system-ui, sans-serif; color: #1b1f23; background: #fff; line-height: 1.5; }
body { margin: 0; overflow-wrap: break-word; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; color: #1b1f23; padding: .5rem; z-index: 1; }
.top { background: #1b1f23; color: #fff; padding: .5rem 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; }
.top a { color: #fff; }
.brand { font-weight: 700; text-decoration: none; }
.top nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.top nav a[aria-current=page] { font-weight: 600; }
.sign-out { margin-left: auto; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
.who { font-size: .9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin-top: 0; }
h2 { font-size: 1.25rem; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .75rem; margin: 1rem 0; }
.facts div { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem .75rem; }
.facts dt { font-size: .85rem; color: #57606a; }
.facts dd { margin: 0; font-weight: 600; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; width: 100%; }
.table-scroll table { margin: 0; }
.table-caption { font-weight: 600; margin: 1rem 0 .25rem; }
.scroll-hint { font-size: .9rem; color: #57606a; margin: 0; }
caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
th, td { border: 1px solid #d0d7de; padding: .4rem .6rem; text-align: left; vertical-align: top; }
table.limits { max-width: 36rem; }
/* Separate borders: collapsed ones are not painted with a sticky cell, so text would show through the gap. */
table.plans { border-collapse: separate; border-spacing: 0; }
table.plans th, table.plans td { min-width: 7rem; border-width: 0 1px 1px 0; }
table.plans tr > :first-child { border-left-width: 1px; }
table.plans thead th { border-top-width: 1px; }
table.plans tr > :first-child { position: sticky; left: 0; z-index: 1; background: #fff; min-width: 6.5rem; max-width: 8rem; }
table.plans thead tr > :first-child { background: #f6f8fa; }
thead th { background: #f6f8fa; }
td.yes { color: #116329; }
td.no { color: #57606a; }
th.current, td.current { background: #ddf4ff; }
.notice { border: 1px solid #1a7f37; background: #dafbe1; padding: .75rem 1rem; border-radius: 6px; }
.error { border: 1px solid #cf222e; background: #ffebe9; padding: .75rem 1rem; border-radius: 6px; }
button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid #1a7f37; background: #1a7f37; color: #fff; cursor: pointer; }
button:focus-visible, a:focus-visible, input:focus-visible, .table-scroll:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
button.secondary { background: #f6f8fa; color: #1b1f23; border-color: #d0d7de; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=password], input[type=text], input[type=email] { font: inherit; padding: .4rem; width: 100%; max-width: 32rem; border: 1px solid #57606a; border-radius: 4px; }
input[aria-invalid=true] { border: 2px solid #cf222e; }
.field { margin: 1rem 0; }
.hint { font-size: .9rem; color: #57606a; margin: 0 0 .25rem; }
.field-error { color: #a40e26; font-weight: 600; margin: 0 0 .25rem; }
a.button { display: inline-block; padding: .4rem .9rem; border-radius: 6px; border: 1px solid #1a7f37; background: #1a7f37; color: #fff; text-decoration: none; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin-top: 1rem; }
@media (min-width: 48rem) {
  .scroll-hint { display: none; }
  table.plans th, table.plans td { min-width: 8.5rem; }
  table.plans tr > :first-child { max-width: none; }
  .top { padding: .75rem 1.5rem; }
  main { padding: 1.5rem; }
  h1 { font-size: 1.6rem; }
}
`;
