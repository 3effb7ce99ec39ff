import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function KvEdit(_props: ScreenProps) {
  return <Page title="Create secret">Not built yet.</Page>;
}
