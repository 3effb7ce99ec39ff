import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function PoliciesList(_props: ScreenProps) {
  return <Page title="Policies">Not built yet.</Page>;
}
