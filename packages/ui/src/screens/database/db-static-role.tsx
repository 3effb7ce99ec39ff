import { Page } from '../../components/page.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { StaticCredentials } from '../credential-panels.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One static database role: its current credentials (password masked) and Rotate now. */
export function DbStaticRole({ params }: ScreenProps) {
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  return (
    <Page
      title={name}
      crumbs={engineCrumbs(mount, 'database', {
        label: 'Static roles',
        to: pathOf('secrets', mount, 'database', 'static-roles'),
      })}
    >
      <StaticCredentials
        credsPath={`${mount}/static-creds/${name}`}
        rotatePath={`${mount}/rotate-role/${name}`}
        question={`Rotate ${name}'s password now? Who uses the current one must read the new one.`}
      />
    </Page>
  );
}
