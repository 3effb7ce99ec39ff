import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function Leases(_props: ScreenProps) {
  return <Page title="Leases">Not built yet.</Page>;
}
