import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  it('redacts secret-looking fields and drops lines below the level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', json: true, sink: { write: (l) => lines.push(l) }, now: () => 0 });
    log.debug('hidden');
    log.child({ component: 'core' }).info('login', { client_token: 'hvs.abc', password: 'pw', user: 'alice' });
    assert.equal(lines.length, 1);
    const entry = JSON.parse(lines[0] ?? '');
    assert.equal(entry['@message'], 'login');
    assert.equal(entry.component, 'core');
    assert.equal(entry.user, 'alice');
    assert.equal(entry.client_token, '[redacted]');
    assert.equal(entry.password, '[redacted]');
    assert.doesNotMatch(lines[0] ?? '', /hvs\.abc|"pw"/);
  });
});
