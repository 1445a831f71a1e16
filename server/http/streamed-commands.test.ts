/**
 * The streamed command routes serve exactly the commands whose contracts declare `streaming`: a route with code
 * for a command the contract does not stream (or a contract that streams a command no route serves) fails here.
 */
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { CommandRegistry, type CommandStreaming } from '../../shared/commands';
import { serverCommands } from '../commands';
import { ATTACHMENT_STREAM_COMMANDS } from './attachment-stream-route';
import { DRIVE_STREAM_COMMANDS } from './drive-stream-route';
import { streamedDirection, streamedForms } from './streamed-command';

const registry = new CommandRegistry(serverCommands);
const served = [...ATTACHMENT_STREAM_COMMANDS, ...DRIVE_STREAM_COMMANDS];

function request(method: string, headers: Record<string, string> = {}): Request {
  return { method, headers } as unknown as Request;
}

describe('streamed commands', () => {
  it('every command a streamed route has code for declares how it streams', () => {
    const undeclared = served.filter((name) => !registry.require(name).contract.streaming);
    expect(undeclared).toEqual([]);
  });

  it('every contract that declares streaming is served by a streamed route', () => {
    const declared = registry
      .contracts()
      .filter((contract) => contract.streaming)
      .map((contract) => contract.name);
    expect(declared.sort()).toEqual([...served].sort());
  });

  it('each route streams its commands only the ways their contracts say', () => {
    const forms = streamedForms(registry, served);
    const upload = request('POST', { 'content-type': 'application/pdf', 'content-length': '10' });
    const parts = request('POST', {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '10',
    });
    const ways = (streaming: CommandStreaming) =>
      [request('GET'), request('HEAD'), upload, parts].map((req) => streamedDirection(streaming, req) ?? '-');
    expect(Object.fromEntries([...forms].map(([name, streaming]) => [name, ways(streaming)]))).toEqual({
      'property.attachment.content': ['output', '-', '-', '-'],
      'property.attachment.put': ['-', '-', 'input', 'input'],
      'drive.save': ['-', '-', 'input', '-'],
      'drive.read': ['output', 'output', '-', '-'],
    });
  });

  it('a command whose contract declares no streaming is not streamed, whatever the route knows of it', () => {
    const bare = new CommandRegistry(
      serverCommands.map((c) =>
        c.contract.name === 'drive.read' ? { ...c, contract: { ...c.contract, streaming: undefined } } : c,
      ),
    );
    expect([...streamedForms(bare, DRIVE_STREAM_COMMANDS).keys()]).toEqual(['drive.save']);
  });
});
