import type { ComponentChildren } from 'preact';
import type { Loaded } from '../hooks/use-load.js';
import { ErrorMessage } from './error-message.js';
import { Link } from './link.js';
import { Loading } from './page.js';

/**
 * A loaded list of names (roles, keys, sets, connections), each a link to its own screen: the
 * server's error in place, `Loading…` until the first answer, and `empty` when there is none.
 */
export function NamedList(p: {
  list: Loaded<readonly string[]>;
  /** What is shown when the list is empty (`No roles yet.`). */
  empty: ComponentChildren;
  /** The app path of an item's screen. */
  hrefOf(name: string): string;
  /** Classes of each link besides `code` (`pki-id`). */
  linkClass?: string;
}) {
  const { list } = p;
  const linkClass = p.linkClass ? `code ${p.linkClass}` : 'code';
  return (
    <>
      <ErrorMessage error={list.error} />
      {list.isLoading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <p>{p.empty}</p>}
      {list.data && list.data.length > 0 && (
        <ul class="list">
          {list.data.map((name) => (
            <li key={name}>
              <Link to={p.hrefOf(name)} class={linkClass}>
                {name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
