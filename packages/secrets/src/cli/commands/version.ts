import { BUILD_DATE, VERSION } from '../../server/version.js';
import { defineCommand } from '../command.js';

/** `ward version` (and `ward -version`): the version of this binary. */
export const versionCommand = defineCommand({
  name: 'version',
  summary: 'Print the version of this binary.',
  usage: '',
  example: 'ward version',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { out }) {
    out.text(`Ward v${VERSION}, built ${BUILD_DATE}`, { version: VERSION, build_date: BUILD_DATE });
    return undefined;
  },
});
