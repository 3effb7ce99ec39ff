import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock, LOG_LEVELS } from '@ward/base';
import type { ConfigLayer } from '../../config/config.js';
import { splitFrames } from '../../monitor/framer.js';
import { MemoryAgentNetwork, type MemoryRequest, type OpenStream } from '../../testing.js';

/** An agent in memory on a fake clock: `fetch` waits for the whole answer, `open` streams it. */
async function startOne(layer: ConfigLayer) {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  const agent = await network.startAgent(layer.name ?? 'a', layer);
  await network.run(1000, () => agent.consensus?.isLeader === true);
  return {
    agent,
    network,
    fetch: (path: string, init?: MemoryRequest) => network.settle(network.fetch(network.url(agent, path), init)),
    open: (path: string): Promise<OpenStream> => network.settle(network.open(network.url(agent, path))),
    /** Moves fake time on in 10 ms steps until `check` holds (up to `ms`), then asserts it. */
    async waitUntil(what: string, check: () => boolean, ms = 5000) {
      await network.run(ms, check);
      assert.ok(check(), what);
    },
    stop: () => agent.stop(false),
  };
}

describe('GET /v1/agent/monitor', () => {
  let a: Awaited<ReturnType<typeof startOne>>;
  before(async () => {
    a = await startOne({ name: 'mon' });
  });
  after(async () => {
    await a.stop();
  });

  /** Opens a monitor, logs one marker line per level, and returns the decoded stream once `until` is seen. */
  async function capture(
    query: string,
    until: RegExp,
    decode: (raw: string) => string,
  ): Promise<{ raw: string; text: string; type: string | null }> {
    const stream = await a.open(`/v1/agent/monitor?${query}`);
    assert.equal(stream.status, 200);
    const marker = `m${Math.random().toString(36).slice(2)}`;
    for (const level of LOG_LEVELS) a.agent.log[level](`marker ${marker} ${level}`, { level_name: level });
    try {
      await a.waitUntil('marker lines', () => until.test(decode(stream.text)) && decode(stream.text).includes(marker));
    } finally {
      stream.close();
    }
    const text = decode(stream.text)
      .split('\n')
      .filter((l) => l.includes(marker))
      .join('\n');
    return { raw: stream.text, text, type: stream.headers.get('content-type') };
  }

  const fromFrames = (raw: string) =>
    splitFrames(raw)
      .filter((f) => f.Data)
      .map((f) => Buffer.from(f.Data!, 'base64').toString('utf8'))
      .join('');

  for (const [i, level] of LOG_LEVELS.entries()) {
    it(`sends frames with lines at ${level} and above only`, async () => {
      const { raw, text, type } = await capture(
        `log_level=${level.toUpperCase()}`,
        /error: level_name=error/,
        fromFrames,
      );
      assert.equal(type, 'application/json');
      for (const f of splitFrames(raw).filter((x) => x.Data)) {
        assert.deepEqual(Object.keys(f).sort(), ['Data', 'FileEvent']);
        assert.equal(f.FileEvent, 'log');
      }
      const seen = LOG_LEVELS.filter((l) => text.includes(`[${l.toUpperCase()}] marker`));
      assert.deepEqual(seen, LOG_LEVELS.slice(i));
    });
  }

  it('defaults to info', async () => {
    const { text } = await capture('', /error: level_name=error/, fromFrames);
    assert.doesNotMatch(text, /\[DEBUG\]/);
    assert.match(text, /\[INFO\] marker/);
  });

  it('sends JSON log lines with log_json=true', async () => {
    const { text } = await capture('log_level=warn&log_json=true', /"level_name":"error"/, fromFrames);
    const lines = text.split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    assert.deepEqual(
      lines.map((l) => l['@level']),
      ['warn', 'error'],
    );
  });

  it('sends raw text with plain=true', async () => {
    const { raw, type } = await capture('plain=true&log_level=error', /error: level_name=error/, (r) => r);
    assert.equal(type, 'text/plain');
    assert.match(raw, /^\S+ \[ERROR\] marker \S+ error: level_name=error\n$/m);
    assert.doesNotMatch(raw, /[{}]/);
  });

  it('sends an empty {} heartbeat frame every second', async () => {
    const stream = await a.open('/v1/agent/monitor?log_level=error');
    try {
      await a.network.run(900);
      assert.equal(stream.text, '', 'nothing before the first second');
      await a.waitUntil('a heartbeat', () => stream.text.includes('{}'), 200);
    } finally {
      stream.close();
    }
  });

  it('rejects bad parameters with 400', async () => {
    for (const [q, msg] of [
      ['log_level=loud', 'Unknown log level: loud'],
      ['log_json=maybe', /^Unknown option for log json: /],
      ['plain=maybe', /^Unknown option for plain: /],
      ['node_id=x&server_id=y', 'Cannot target node and server simultaneously'],
    ] as const) {
      const res = await a.fetch(`/v1/agent/monitor?${q}`);
      assert.equal(res.status, 400);
      const body = await res.text();
      if (typeof msg === 'string') assert.equal(body, msg);
      else assert.match(body, msg);
    }
  });
});

describe('GET /v1/agent/monitor with ACLs', () => {
  it('refuses a token without agent:read before any bytes', async () => {
    const a = await startOne({ acl: { enabled: true } });
    try {
      const res = await a.fetch('/v1/agent/monitor');
      assert.deepEqual([res.status, await res.text()], [403, 'Permission denied']);
    } finally {
      await a.stop();
    }
  });
});
