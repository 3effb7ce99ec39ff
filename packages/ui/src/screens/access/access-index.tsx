import { Link } from '../../components/link.js';
import { Page } from '../../components/page.js';

/** The Access section: one link per screen of it (auth methods, entities, groups, leases, …). */
export function AccessIndex() {
  return (
    <Page title="Access">
      <ul class="cards">
        <li>
          <Link to="/access/leases">Leases</Link>
          <p>Look up, renew and revoke leases, or revoke every lease under a prefix.</p>
        </li>
      </ul>
    </Page>
  );
}
