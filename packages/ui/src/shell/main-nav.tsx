import { useCapabilities } from '../api/capabilities.js';
import { useApp, useSubscription } from '../app-context.js';
import { Link } from '../components/link.js';
import { NAV_ITEMS } from '../routes.js';

/** The main navigation: a section whose entry paths the ACL refuses outright is not offered. */
export function MainNav() {
  const { router } = useApp();
  useSubscription(router);
  const caps = useCapabilities(NAV_ITEMS.flatMap((i) => (i.requiresAny ?? []).map((r) => r.path)));
  const path = router.location.path;
  const shown = NAV_ITEMS.filter((i) => !i.requiresAny || i.requiresAny.some((r) => caps.allows(r.path, r.capability)));
  return (
    <nav class="main-nav" aria-label="Main">
      <ul>
        {shown.map((i) => (
          <li key={i.to}>
            <Link to={i.to} aria-current={path === i.to || path.startsWith(`${i.to}/`) ? 'page' : undefined}>
              {i.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
