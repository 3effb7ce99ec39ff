import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { hasLiteralPassword, isTemplated, parseMysqlUrl, parsePostgresUrl, withCredentials } from './connection-url.js';

describe('database connection URLs', () => {
  it('parse the Go MySQL DSN the established plugin takes, TCP and Unix socket', () => {
    const tcp = withCredentials(
      parseMysqlUrl('{{username}}:{{password}}@tcp(db.example:3307)/app?tls=true'),
      'root',
      'p@ss/word',
    );
    assert.equal(tcp.host, 'db.example');
    assert.equal(tcp.port, 3307);
    assert.equal(tcp.database, 'app');
    assert.equal(tcp.user, 'root');
    assert.equal(tcp.password, 'p@ss/word', 'credentials are filled in after parsing: nothing to escape');
    assert.equal(tcp.params.get('tls'), 'true');
    const unix = parseMysqlUrl('u:p@unix(/run/mysqld.sock)/');
    assert.equal(unix.socketPath, '/run/mysqld.sock');
    assert.equal(unix.user, 'u');
    assert.equal(unix.password, 'p');
    assert.throws(() => parseMysqlUrl('no-slash'), InvalidRequestError);
  });

  it('parse PostgreSQL URLs and key=value strings', () => {
    const url = withCredentials(
      parsePostgresUrl('postgresql://{{username}}:{{password}}@localhost:6543/db?sslmode=disable'),
      'r',
      's',
    );
    assert.deepEqual([url.host, url.port, url.database, url.user, url.password], ['localhost', 6543, 'db', 'r', 's']);
    assert.equal(url.params.get('sslmode'), 'disable');
    const kv = parsePostgresUrl("host=/tmp port=5433 user=x password='a b' dbname=d");
    assert.deepEqual([kv.host, kv.port, kv.user, kv.password, kv.database], ['/tmp', 5433, 'x', 'a b', 'd']);
    assert.throws(() => parsePostgresUrl('postgres://h:99999/x'), InvalidRequestError);
  });

  it('tell templated URLs from ones with a password written in', () => {
    assert.ok(isTemplated('postgres://{{username}}:{{password}}@h/db'));
    assert.ok(hasLiteralPassword('postgres://u:secret@h/db'));
    assert.ok(!hasLiteralPassword('postgres://{{username}}:{{password}}@h/db'));
    assert.ok(!hasLiteralPassword('postgres://u@h/db'));
  });
});
