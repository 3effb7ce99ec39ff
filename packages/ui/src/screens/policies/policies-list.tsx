import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';

/** The ACL policies (`sys/policies/acl`), each a link to its editor. */
export function PoliciesList() {
  const { api } = useApp();
  const names = useLoad(() => api.list('sys/policies/acl'), []);
  const caps = useCapabilities(['sys/policies/acl/example']);
  return (
    <Page
      title="ACL policies"
      actions={
        caps.allows('sys/policies/acl/example', ['create', 'update']) && (
          <Link to="/policies/create" class="button">
            Create policy
          </Link>
        )
      }
    >
      <ErrorMessage error={names.error} />
      {names.isLoading && !names.data && <Loading />}
      {names.data && (
        <ul class="list" aria-label="Policies">
          {names.data.map((name) => (
            <li key={name}>
              <Link to={pathOf('policies', name)} class="code">
                {name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
