import * as assert from 'node:assert/strict';
import { AgentAccess, type AgentSettings } from '../../src/agent/core/agentAccess';
import { AgentJobs } from '../../src/agent/core/agentJobs';
import { realClock } from '../../src/agent/core/poller';
import { AgentClient, type AgentClientOptions } from '../../src/api/agentClient';
import { ServiceError } from '../../src/api/errors';
import type { Memento } from '../../src/common/memento';
import { startEmulator, type RunningEmulator } from '../emulator';

// Issue 28: the agent's one way to the service. A client was built for every call; now there is
// one per settings and key, built at the first call after a change and used by every call until
// the next. Counted through the factory, with real requests to the emulator.

class MemoryMemento implements Memento {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

describe('AgentAccess: one client per settings and key, against the emulator', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  let settings: AgentSettings;
  let built: AgentClientOptions[];
  let access: AgentAccess;

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 60_000 });
  });
  after(() => emu.close());

  beforeEach(() => {
    emu.reset();
    settings = { baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, requestTimeoutMs: 2000 };
    built = [];
    access = new AgentAccess(
      async () => ({ ...settings }),
      (options) => {
        built.push(options);
        return new AgentClient(options);
      },
    );
  });
  afterEach(() => access.dispose());

  const agentRequests = () => emu.requests.filter((r) => r.path.startsWith('/v2/agent/'));

  it('builds one client for a create, a follow-up and polls, and a new one after the settings change', async () => {
    const jobs = new AgentJobs({
      memento: new MemoryMemento(),
      baseUrl: emu.url,
      projectId: emu.projectId,
      client: () => access.client(),
      clock: realClock,
      baseIntervalMs: () => 60_000,
      isFocused: () => true,
    });
    try {
      const { job } = await jobs.create('Fix the timeout table');
      await jobs.followUp(job.id, 'And the retry table');
      const client = await access.client();
      await Promise.all([client.getJob(job.id), (await access.client()).getJob(job.id), (await access.client()).getJob(job.id)]);
      assert.equal(built.length, 1, 'one client for five requests');
      assert.deepEqual(
        agentRequests().map((r) => [r.method, r.auth]),
        [
          ['POST', 'admin'],
          ['POST', 'admin'],
          ['GET', 'admin'],
          ['GET', 'admin'],
          ['GET', 'admin'],
        ],
      );

      // A change nobody announced is not seen: the client is the settings' as they were.
      settings.projectId = 'another-project';
      // Compared with assert.ok: a failed assert.equal would print both clients, key and all.
      assert.ok((await access.client()) === client, 'the unannounced change built a client');
      assert.equal(built.length, 1);

      access.renew();
      await assert.rejects((await access.client()).getJob(job.id));
      assert.equal(built.length, 2, 'a new client after the settings changed');
      assert.equal(agentRequests().at(-1)!.path, `/v2/agent/another-project/job/${job.id}`);
      assert.ok((await access.client()) === (await access.client()), 'a call after the renewal built another client');
      assert.equal(built.length, 2);
    } finally {
      jobs.dispose();
    }
  });

  it('builds a new client after the key changes, and the request carries the new key', async () => {
    const { id } = await (await access.client()).createJob('Fix it');
    settings.apiKey = 'svc_someoneelseskey0001';
    access.renew();
    await assert.rejects((await access.client()).getJob(id), (e: ServiceError) => e.reason.code === 'keyRefused');
    assert.equal(agentRequests().at(-1)!.auth, 'other', 'the new key went out');
    settings.apiKey = emu.adminKey;
    access.renew();
    assert.equal((await (await access.client()).getJob(id)).id, id);
    assert.equal(built.length, 3);
    assert.deepEqual(
      built.map((o) => o.apiKey === emu.adminKey),
      [true, false, true],
    );
  });

  it('calls that arrive together share one build', async () => {
    const clients = await Promise.all([access.client(), access.client(), access.client()]);
    assert.equal(built.length, 1);
    assert.ok(clients.every((c) => c === clients[0]));
  });

  it('says what is missing, first things first, builds nothing meanwhile, and sees the key once it is there', async () => {
    settings = { baseUrl: '', projectId: '', apiKey: undefined };
    const missing = async () => (await access.client().catch((e: ServiceError) => e)) as ServiceError;
    assert.deepEqual((await missing()).reason, { code: 'notConfigured', service: 'agent', missing: 'baseUrl' });
    settings.baseUrl = emu.url;
    assert.deepEqual((await missing()).reason, { code: 'notConfigured', service: 'agent', missing: 'projectId' });
    settings.projectId = emu.projectId;
    assert.deepEqual((await missing()).reason, { code: 'notConfigured', service: 'agent', missing: 'apiKey' });
    assert.equal(await access.missing(), 'apiKey');
    assert.equal(built.length, 0);
    // Not ready is never kept: the next call reads the settings and the key again.
    settings.apiKey = emu.adminKey;
    assert.equal(await access.missing(), undefined);
    await (await access.client()).createJob('Fix it');
    assert.equal(built.length, 1);
  });

  it('tells when agent jobs become ready or stop being ready', async () => {
    const watched = new AgentAccess(async () => ({ ...settings }));
    try {
      let changes = 0;
      watched.onDidChangeReadiness(() => changes++);
      assert.equal(watched.ready, false, 'not ready until the settings and the key have been read');
      await watched.missing();
      assert.equal(watched.ready, true);
      settings.apiKey = undefined;
      watched.renew();
      await watched.missing();
      assert.equal(watched.ready, false);
      settings.apiKey = emu.adminKey;
      watched.renew();
      await watched.missing();
      assert.equal(watched.ready, true);
      assert.equal(changes, 3, 'not known → ready, ready → not, not → ready');
    } finally {
      watched.dispose();
    }
  });
});
