import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sidString } from './sid.js';

// Issue 31 (use_token_groups): AD's tokenGroups holds binary SIDs, looked up as <SID=S-…>.
describe('sidString', () => {
  it('reads the well-known SIDs from their binary form', () => {
    // BUILTIN\Administrators and a domain user, as AD writes them (MS-DTYP §2.4.2.2).
    assert.equal(sidString(Buffer.from('01020000000000052000000020020000', 'hex')), 'S-1-5-32-544');
    assert.equal(
      sidString(Buffer.from('010500000000000515000000c7f7fed77c7755c8945ace01f4010000', 'hex')),
      'S-1-5-21-3623811015-3361044348-30300820-500',
    );
  });

  it('refuses bytes that are no SID', () => {
    assert.equal(sidString(Buffer.from('0102000000000005', 'hex')), undefined, 'sub-authorities missing');
    assert.equal(sidString(Buffer.from('010100', 'hex')), undefined);
  });
});
