import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function KvSecret(_props: ScreenProps) {
  return <Page title="Secret">Not built yet.</Page>;
}
