import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerConfig } from './config.js';
import { sanitizedConfig } from './sanitized-config.js';

describe('sanitizedConfig', () => {
  it('names the storage and seal types but none of their settings', () => {
    const config = {
      storage: { type: 'postgresql', settings: { connection_url: 'postgres://ward:hunter2@db/ward' } },
      listeners: [{ address: '127.0.0.1:8200', tlsDisable: true, maxRequestSize: 0 }],
      logLevel: 'info',
      logJson: false,
      kmsLibraries: new Map(),
      seals: {
        enabled: { type: 'transit', disabled: false, settings: { token: 'hvs.secret' } as never, ignoredKeys: [] },
      },
    } as unknown as ServerConfig;
    const out = sanitizedConfig(config);
    const text = JSON.stringify(out);
    assert.doesNotMatch(text, /hunter2|hvs\.secret|connection_url/);
    assert.deepEqual(out.storage, { type: 'postgresql' });
    assert.deepEqual(out.seals, [{ type: 'transit', disabled: false }]);
    assert.equal((out.listeners as { config: { address: string } }[])[0]?.config.address, '127.0.0.1:8200');
  });
});
