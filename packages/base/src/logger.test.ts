import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, createLogTap } from './logger.js';

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

describe('createLogTap', () => {
  it('hands listeners lines at their own level and format, redacted, until they unsubscribe', () => {
    const written: string[] = [];
    const tap = createLogTap();
    assert.equal(tap.threshold, Number.POSITIVE_INFINITY);
    const log = createLogger({ level: 'warn', sink: { write: (l) => written.push(l) }, now: () => 0, tap });
    const standard: string[] = [];
    const json: string[] = [];
    const stopStandard = tap.subscribe('debug', 'standard', (l) => standard.push(l));
    const stopJson = tap.subscribe('info', 'json', (l) => json.push(l));
    assert.equal(log.isEnabled?.('debug'), true);
    log.trace('too fine');
    log.child({ component: 'http' }).debug('request', { path: 'sys/health', token: 'hvs.x' });
    log.info('mounted', { path: 'kv/' });
    assert.deepEqual(written, [], 'the sink still gets only its own level');
    assert.deepEqual(standard, [
      '1970-01-01T00:00:00.000Z [DEBUG] request: component=http path=sys/health token=[redacted]\n',
      '1970-01-01T00:00:00.000Z [INFO] mounted: path=kv/\n',
    ]);
    assert.equal(json.length, 1);
    assert.deepEqual(JSON.parse(json[0] ?? ''), {
      '@level': 'info',
      '@message': 'mounted',
      '@timestamp': '1970-01-01T00:00:00.000Z',
      path: 'kv/',
    });
    stopStandard();
    stopJson();
    log.info('after');
    assert.equal(standard.length, 2);
    assert.equal(tap.threshold, Number.POSITIVE_INFINITY);
    assert.equal(log.isEnabled?.('info'), false);
  });
});
