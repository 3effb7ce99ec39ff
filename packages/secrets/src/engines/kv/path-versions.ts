import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { rfc3339Precise } from '../../logical/time.js';
import type { KvV2Deps } from './path-data.js';
import type { VersionMetadata } from './versioned-store.js';

type Action = 'delete' | 'undelete' | 'destroy';

const SUMMARY: Record<Action, string> = {
  delete: 'Soft-delete the given versions.',
  undelete: 'Restore soft-deleted versions.',
  destroy: 'Remove the data of the given versions permanently.',
};

/** `delete/*path`, `undelete/*path`, `destroy/*path`: act on listed versions of a secret. */
export function pathVersionActions(d: KvV2Deps): PathDefinition[] {
  return (['delete', 'undelete', 'destroy'] as const).map((action) =>
    definePath({
      pattern: `${action}/*path`,
      fields: {
        path: field.path({ description: 'Location of the secret.' }),
        versions: field.ints({ description: 'Version numbers to act on.' }),
      },
      operations: {
        update: {
          summary: SUMMARY[action],
          handler: ({ data }) =>
            d.locks.run(data.path, async () => {
              if (!data.versions || data.versions.length === 0)
                throw new InvalidRequestError('no version number provided');
              const meta = await d.store.metadata(data.path);
              if (!meta) return undefined;
              const touched = data.versions.filter((v) => meta.versions[String(v)]);
              for (const v of touched) apply(action, meta.versions[String(v)] as VersionMetadata, d.clock.nowPrecise());
              await d.store.putMetadata(data.path, meta);
              if (action === 'destroy') await d.store.destroyData(data.path, touched);
              return undefined;
            }),
        },
      },
      help: { synopsis: SUMMARY[action], description: `${SUMMARY[action]} Unknown versions are ignored.` },
    }),
  );
}

function apply(action: Action, v: VersionMetadata, nowMs: number): void {
  if (action === 'destroy') v.destroyed = true;
  else if (v.destroyed) return;
  else if (action === 'delete') {
    if (v.deletion_time === '' || Date.parse(v.deletion_time) > nowMs) v.deletion_time = rfc3339Precise(nowMs);
  } else v.deletion_time = '';
}
