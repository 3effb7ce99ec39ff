import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function EngineEnable(_props: ScreenProps) {
  return <Page title="Enable a secrets engine">Not built yet.</Page>;
}
