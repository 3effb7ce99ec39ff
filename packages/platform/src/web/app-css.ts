/** The one stylesheet: served from our own origin so the pages' CSP can forbid inline styles. */
export const APP_CSS = `
:root { font-family: system-ui, sans-serif; color: #1b1f23; background: #fff; line-height: 1.5; }
body { margin: 0; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
.top { background: #1b1f23; color: #fff; padding: .75rem 1.5rem; font-weight: 600; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin-top: 0; }
table { border-collapse: collapse; margin: 1rem 0; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: .4rem .6rem; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; }
td.yes { color: #116329; }
td.no { color: #57606a; }
th.current, td.current { background: #ddf4ff; }
.notice { border: 1px solid #1a7f37; background: #dafbe1; padding: .75rem 1rem; border-radius: 6px; }
.error { border: 1px solid #cf222e; background: #ffebe9; padding: .75rem 1rem; border-radius: 6px; }
button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid #1f883d; background: #1f883d; color: #fff; cursor: pointer; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
button.secondary { background: #f6f8fa; color: #1b1f23; border-color: #d0d7de; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=password] { font: inherit; padding: .4rem; width: 100%; max-width: 32rem; }
.actions { display: flex; gap: 1rem; align-items: center; margin-top: 1rem; }
`;
