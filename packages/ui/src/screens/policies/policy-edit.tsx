import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function PolicyEdit(_props: ScreenProps) {
  return <Page title="Policy">Not built yet.</Page>;
}
