import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { LogFramer, splitFrames } from './framer.js';

describe('LogFramer', () => {
  it('batches lines into base64 frames of at most 1024 bytes, with {} heartbeats', () => {
    const clock = new FakeClock(0);
    let out = '';
    const f = new LogFramer({
      clock,
      write: (s) => {
        out += s;
      },
      isPlain: false,
    });
    f.start();
    const line = `${'x'.repeat(599)}\n`;
    f.push(line);
    f.push(line);
    clock.advance(1000);
    const frames = splitFrames(out);
    const data = frames.filter((fr) => fr.Data);
    assert.equal(data.length, 2);
    assert.ok(data.every((fr) => fr.FileEvent === 'log' && Buffer.from(fr.Data!, 'base64').length <= 1024));
    assert.equal(data.map((fr) => Buffer.from(fr.Data!, 'base64').toString()).join(''), line + line);
    assert.ok(frames.some((fr) => Object.keys(fr).length === 0));
    f.close();
  });

  it('writes raw lines without heartbeats in plain mode, and reports dropped lines', () => {
    const clock = new FakeClock(0);
    let out = '';
    const f = new LogFramer({
      clock,
      write: (s) => {
        out += s;
      },
      isPlain: true,
      bufferedLines: 2,
    });
    f.start();
    f.push('a\n');
    f.push('b\n');
    f.push('c\n');
    clock.advance(2000);
    assert.equal(out, 'a\nb\n');
    clock.advance(1200);
    assert.match(out, /\[WARN\] Monitor dropped 1 logs during monitor request\n$/);
    f.close();
  });
});
