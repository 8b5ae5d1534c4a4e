import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startEmulator, type RunningEmulator } from '../emulator';

// The emulator's MCP server (what a docs site publishes at /mcp), driven by the official SDK's
// client over real HTTP, and by plain fetch for what a careless client might send.

/** The text of a tool result: its text items, joined. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result as CallToolResult).content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

async function rawPost(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) };
}

describe('emulator: MCP server at /mcp', function () {
  let emu: RunningEmulator;
  let client: Client;

  before(async () => {
    emu = await startEmulator({ port: 0 });
    client = new Client({ name: 'mcp-emulator-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(emu.mcpUrl)));
  });
  after(async () => {
    await client?.close();
    await emu?.close();
  });

  it('is published at <emulator>/mcp and names itself after the docs site, without any key', () => {
    assert.equal(emu.mcpUrl, `${emu.url}/mcp`);
    const info = client.getServerVersion();
    assert.equal(info?.name, emu.domain);
    assert.match(info?.title ?? '', /Acme Relay/);
    assert.ok(client.getServerCapabilities()?.tools, 'the server offers tools');
  });

  it('lists its tools: search, and get_page', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('search'), `tools: ${names.join(', ')}`);
    assert.ok(names.includes('get_page'), `tools: ${names.join(', ')}`);
    const search = tools.find((t) => t.name === 'search')!;
    assert.deepEqual(search.inputSchema.required, ['query']);
    assert.equal(search.annotations?.readOnlyHint, true);
  });

  it('search finds the page a person would open, with its title, URL and a snippet', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'webhook endpoint secret', limit: 3 } });
    assert.notEqual(result.isError, true, textOf(result));
    const text = textOf(result);
    assert.match(text, /Webhooks/);
    assert.ok(text.includes(`${emu.url}/docs/webhooks`), text);
    // The URL it gives opens the page on the emulator's docs site.
    const url = /\((http:\/\/[^)\s]+\/docs\/webhooks[^)\s]*)\)/.exec(text)?.[1] ?? /(http:\/\/\S+\/docs\/webhooks\S*)/.exec(text)![1]!;
    const page = await fetch(url);
    assert.equal(page.status, 200);
  });

  it('search respects limit, and says so plainly when nothing matches', async () => {
    const one = textOf(await client.callTool({ name: 'search', arguments: { query: 'configuration', limit: 1 } }));
    assert.equal((one.match(/\/docs\//g) ?? []).length, 1, one);
    const none = await client.callTool({ name: 'search', arguments: { query: 'zxqv plorbification' } });
    assert.notEqual(none.isError, true);
    assert.match(textOf(none), /no pages? match|nothing/i);
  });

  it('a bad query is a tool error, not a crash: empty, blank, too long, bad limit', async () => {
    for (const args of [{ query: '' }, { query: '   ' }, { query: 'x'.repeat(5000) }, { query: 'webhooks', limit: 0 }, { query: 'webhooks', limit: 500 }, {}]) {
      const result = await client.callTool({ name: 'search', arguments: args });
      assert.equal(result.isError, true, `${JSON.stringify(args).slice(0, 60)}: ${textOf(result)}`);
      assert.ok(textOf(result).length > 0 && textOf(result).length < 600, textOf(result));
    }
    // The server is still there afterwards.
    const ok = await client.callTool({ name: 'search', arguments: { query: 'webhooks' } });
    assert.notEqual(ok.isError, true);
  });

  it('get_page returns a page’s markdown by URL, path or slug, and a tool error for an unknown page', async () => {
    for (const page of [`${emu.url}/docs/webhooks#payload`, '/docs/webhooks', 'webhooks']) {
      const result = await client.callTool({ name: 'get_page', arguments: { page } });
      assert.notEqual(result.isError, true, textOf(result));
      assert.match(textOf(result), /# Webhooks/);
      assert.match(textOf(result), /--max-concurrency 20/);
    }
    const missing = await client.callTool({ name: 'get_page', arguments: { page: '/docs/no-such-page' } });
    assert.equal(missing.isError, true);
  });

  it('a malformed body gets a JSON-RPC error at once, not a hang', async () => {
    const bad = await rawPost(emu.mcpUrl, '{"jsonrpc": "2.0", "method": ');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.jsonrpc, '2.0');
    assert.equal(bad.json.error.code, -32700);
    assert.equal(bad.json.id, null);

    const notRpc = await rawPost(emu.mcpUrl, JSON.stringify({ hello: 'world' }));
    assert.equal(notRpc.status, 400);
    assert.equal(typeof notRpc.json.error.code, 'number');

    const empty = await rawPost(emu.mcpUrl, '');
    assert.equal(empty.status, 400);
    assert.equal(empty.json.error.code, -32700);
  });

  it('is bounded: an oversized body is refused with 413 before it is parsed', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'a '.repeat(200_000) } } });
    const res = await rawPost(emu.mcpUrl, huge);
    assert.equal(res.status, 413);
    assert.equal(res.json.jsonrpc, '2.0');
    assert.equal(typeof res.json.error.message, 'string');
  });

  it('answers GET and DELETE with 405 (stateless: no SSE stream, no sessions)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(emu.mcpUrl, { method, headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(5000) });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      const body = (await res.json()) as any;
      assert.equal(body.jsonrpc, '2.0');
    }
  });

  it('shows up in the request log, without credentials', async () => {
    emu.reset();
    await client.listTools();
    const calls = emu.requests.filter((r) => r.path === '/mcp');
    assert.ok(calls.length >= 1);
    const list = calls.find((r) => (r.body as any)?.method === 'tools/list');
    assert.ok(list, JSON.stringify(calls.map((r) => r.body)));
    assert.equal(list.status, 200);
    assert.equal(list.auth, 'none');
  });
});
