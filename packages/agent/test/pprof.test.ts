import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { startTestAgent, type TestAgent } from '../src/testing.js';

const started: TestAgent[] = [];
after(async () => {
  await Promise.all(started.map((a) => a.stop()));
});

/** An agent on real sockets with enable_debug on: the profiles take real time and real CPU. */
async function agentWith(_enableDebug: true, _aclEnabled: false): Promise<{ a: TestAgent }> {
  const a = await startTestAgent({ enableDebug: true });
  started.push(a);
  return { a };
}

// The availability table (enable_debug × ACLs) is in src/http/handlers/pprof.test.ts, in memory.
describe('pprof profiles', () => {
  it('returns the command line as NUL-separated text', async () => {
    const { a } = await agentWith(true, false);
    const res = await a.fetch('/v1/agent/pprof/cmdline');
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await res.text(), 'node\0ward-agent\0agent\0-node=test');
  });

  it('returns a CPU profile for `seconds` that a pprof decoder parses', async () => {
    const { a } = await agentWith(true, false);
    const res = await a.fetch('/v1/agent/pprof/profile?seconds=1');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="profile"');
    const profile = Profile.decode(gunzipSync(Buffer.from(await res.arrayBuffer())));
    const types = profile.sampleType.map((t) => profile.stringTable.strings[Number(t.type)]);
    assert.ok(types.includes('wall'), `sample types: ${types.join(',')}`);
    assert.ok(Number(profile.durationNanos) >= 900_000_000);
  });

  it('returns a heap profile, and text with debug=1', async () => {
    const { a } = await agentWith(true, false);
    const res = await a.fetch('/v1/agent/pprof/heap');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="heap"');
    const profile = Profile.decode(gunzipSync(Buffer.from(await res.arrayBuffer())));
    const types = profile.sampleType.map((t) => profile.stringTable.strings[Number(t.type)]);
    assert.deepEqual(types, ['inuse_objects', 'inuse_space']);
    const text = await a.fetch('/v1/agent/pprof/heap?debug=1');
    assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(text.headers.get('content-disposition'), null);
    assert.match(await text.text(), /^heap profile: \d+ samples \[inuse_objects\/count inuse_space\/bytes\]/);
  });

  it('returns an execution trace for `seconds` as Chrome trace-event JSON', async () => {
    const { a } = await agentWith(true, false);
    const res = await a.fetch('/v1/agent/pprof/trace?seconds=1');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="trace"');
    const trace = JSON.parse(await res.text()) as { traceEvents: Array<{ ph: string; name: string }> };
    assert.ok(trace.traceEvents.length > 0);
    assert.ok(trace.traceEvents.every((e) => typeof e.ph === 'string' && typeof e.name === 'string'));
  });

  it('answers 404 for an unknown profile and for no profile', async () => {
    const { a } = await agentWith(true, false);
    const res = await a.fetch('/v1/agent/pprof/nosuch');
    assert.deepEqual([res.status, await res.text()], [404, 'Pprof profile not found profile: nosuch']);
    const none = await a.fetch('/v1/agent/pprof/');
    assert.deepEqual([none.status, await none.text()], [404, 'Invalid method']);
  });

  // Issue 23 point 5: the Go-only profiles answer valid pprof with the established sample types.
  it('answers goroutine, threadcreate, block and mutex with valid pprof profiles', async () => {
    const { a } = await agentWith(true, false);
    const want = new Map([
      ['goroutine', ['goroutine/count']],
      ['threadcreate', ['threadcreate/count']],
      ['block', ['contentions/count', 'delay/nanoseconds']],
      ['mutex', ['contentions/count', 'delay/nanoseconds']],
    ]);
    for (const [name, types] of want) {
      const res = await a.fetch(`/v1/agent/pprof/${name}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="${name}"`);
      const p = Profile.decode(gunzipSync(Buffer.from(await res.arrayBuffer())));
      const str = (i: number | bigint) => p.stringTable.strings[Number(i)];
      assert.deepEqual(
        p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`),
        types,
        name,
      );
      if (name === 'goroutine' || name === 'threadcreate') assert.ok(p.sample.length > 0, name);
    }
    const text = await a.fetch('/v1/agent/pprof/goroutine?debug=1');
    assert.match(await text.text(), /^goroutine profile: \d+ samples \[goroutine\/count\]\n.*TCPServerWrap/s);
  });

  it('caps seconds at 300, and cancels a CPU profile whose client went away', async () => {
    const { a } = await agentWith(true, false);
    const tooLong = await a.fetch('/v1/agent/pprof/profile?seconds=301');
    assert.deepEqual([tooLong.status, await tooLong.text()], [400, 'seconds must be at most 300']);
    const ac = new AbortController();
    const pending = a.fetch('/v1/agent/pprof/profile?seconds=300', { signal: ac.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    ac.abort();
    await pending;
    // Without cancellation this would be 500 "already running" for the next 300 s.
    let res: Response | undefined;
    for (let i = 0; i < 50; i++) {
      res = await a.fetch('/v1/agent/pprof/profile?seconds=1');
      if (res.status !== 500) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(res?.status, 200);
  });
});
