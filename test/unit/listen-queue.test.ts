import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { queuedConnections, queuedFromProcTable } from '../../src/http/listen-queue.js';

// Two rows as Linux writes them: a listener with 20 (0x14) connections waiting, and an
// established socket whose rx_queue is bytes, not connections.
const table = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   6: 0100007F:9A11 00000000:0000 0A 00000000:00000014 00:00000000 00000000     0        0 31597 21 000000002037ae95 100 0 0 10 0',
  '   7: 0100007F:9A11 0100007F:D2C4 01 00000000:00000014 00:00000000 00000000     0        0 31600 1 000000002037ae95 20 4 30 10 -1',
].join('\n');

describe('queuedFromProcTable', () => {
  it("reads the LISTEN row's rx_queue by inode", () => {
    expect(queuedFromProcTable(table, 31597)).toBe(20);
  });
  it('ignores a socket that is not listening, and an unknown inode', () => {
    expect(queuedFromProcTable(table, 31600)).toBeUndefined();
    expect(queuedFromProcTable(table, 1)).toBeUndefined();
  });
});

// The kernel completes connections on its own: another process connects while this one's event
// loop is blocked (execFileSync), so none can be accepted until it is free again.
describe.skipIf(process.platform !== 'linux')('queuedConnections on a real listener', () => {
  it('counts connections the process has not accepted, then 0 once it has', async () => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    let accepted = 0;
    server.on('connection', () => accepted++);
    try {
      expect(queuedConnections(server)).toBe(0);
      const dial = `const net = require('node:net'); let n = 0;
        for (let i = 0; i < 5; i++) net.connect(${port}, '127.0.0.1', () => { if (++n === 5) process.exit(0); });`;
      execFileSync(process.execPath, ['-e', dial], { timeout: 10_000 });
      expect(queuedConnections(server)).toBe(5);
      expect(accepted).toBe(0);
      while ((queuedConnections(server) ?? 0) > 0) await new Promise((r) => setTimeout(r, 1));
      expect(accepted).toBe(5);
    } finally {
      server.close();
    }
  });
});
