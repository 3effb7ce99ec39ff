/** The screens, one per file, grouped by section (lifecycle, auth, secrets, kv, access, policies, tools); routes.ts lists them. @module */
import { Link } from '../components/link.js';
import { Page } from '../components/page.js';

export function NotFound() {
  return (
    <Page title="Not found">
      <p>
        There is no screen here. <Link to="/secrets">Go to the secrets engines</Link>.
      </p>
    </Page>
  );
}
