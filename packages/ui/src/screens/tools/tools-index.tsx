import { Link } from '../../components/link.js';
import { Page } from '../../components/page.js';

const TOOLS = [
  ['/tools/wrap', 'Wrap', 'Wrap data in a single-use token.'],
  ['/tools/lookup', 'Lookup', 'See where a wrapping token comes from and when it expires.'],
  ['/tools/unwrap', 'Unwrap', 'Spend a wrapping token and see its data.'],
  ['/tools/rewrap', 'Rewrap', 'Move a wrapped response into a new token.'],
  ['/tools/random', 'Random', 'Random bytes from the server.'],
  ['/tools/hash', 'Hash', 'A digest of some data.'],
  ['/tools/console', 'Console', 'Type read, write, list and delete commands.'],
] as const;

/** The Tools section: one link per tool. */
export function ToolsIndex() {
  return (
    <Page title="Tools">
      <ul class="cards">
        {TOOLS.map(([to, name, text]) => (
          <li key={to}>
            <Link to={to}>{name}</Link>
            <p>{text}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
