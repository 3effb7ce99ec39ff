import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function KvBrowse(_props: ScreenProps) {
  return <Page title="Secrets">Not built yet.</Page>;
}
