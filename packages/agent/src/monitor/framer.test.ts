import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { LogFramer, splitFrames } from './framer.js';

/** A started framer on `clock` whose output collects in what `output()` answers. */
function startFramer(clock: FakeClock, options: { isPlain: boolean; bufferedLines?: number }) {
  let out = '';
  const framer = new LogFramer({
    clock,
    write: (s) => {
      out += s;
    },
    ...options,
  });
  framer.start();
  return { framer, output: () => out };
}

describe('LogFramer', () => {
  it('batches lines into base64 frames of at most 1024 bytes, with {} heartbeats', () => {
    const clock = new FakeClock(0);
    const { framer: f, output } = startFramer(clock, { isPlain: false });
    const line = `${'x'.repeat(599)}\n`;
    f.push(line);
    f.push(line);
    clock.advance(1000);
    const frames = splitFrames(output());
    const data = frames.filter((fr) => fr.Data);
    assert.equal(data.length, 2);
    assert.ok(data.every((fr) => fr.FileEvent === 'log' && Buffer.from(fr.Data!, 'base64').length <= 1024));
    assert.equal(data.map((fr) => Buffer.from(fr.Data!, 'base64').toString()).join(''), line + line);
    assert.ok(frames.some((fr) => Object.keys(fr).length === 0));
    f.close();
  });

  it('writes raw lines without heartbeats in plain mode, and reports dropped lines', () => {
    const clock = new FakeClock(0);
    const { framer: f, output } = startFramer(clock, { isPlain: true, bufferedLines: 2 });
    f.push('a\n');
    f.push('b\n');
    f.push('c\n');
    clock.advance(2000);
    assert.equal(output(), 'a\nb\n');
    clock.advance(1200);
    assert.match(output(), /\[WARN\] Monitor dropped 1 logs during monitor request\n$/);
    f.close();
  });
});
