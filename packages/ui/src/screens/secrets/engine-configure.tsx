import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../routes.js';

export function EngineConfigure(_props: ScreenProps) {
  return <Page title="Engine settings">Not built yet.</Page>;
}
