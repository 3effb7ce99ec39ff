import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function KvMetadata(_props: ScreenProps) {
  return <Page title="Metadata">Not built yet.</Page>;
}
