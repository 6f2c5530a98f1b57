// `{server}` of a client run: what the client starts as its stdio MCP server. It is only a relay: every chunk of its
// stdin goes to the run as it was read (bytes in base64, stamped with the time it was read), then its end and any
// signal it gets; whatever the run sends comes out on its stdout. The run decides and judges everything. It imports
// nothing of the project, so it starts as fast as node does; it exits when the run closes or drops the connection.
import { connect } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
const at = process.argv.indexOf('--connect');
const address = /^(127\.0\.0\.1):(\d+)\/([0-9a-f]+)$/.exec(process.argv[at + 1] ?? '');
if (at < 0 || !address) {
  process.stderr.write('usage: stdio-bridge --connect 127.0.0.1:PORT/TOKEN (started by mcp-conformance client)\n');
  process.exit(2);
}
const socket = connect(Number(address[2]), address[1]);
const send = (record: Record<string, unknown>) => socket.write(`${JSON.stringify({ t: now(), ...record })}\n`);
send({ hello: address[3], pid: process.pid });
process.stdin.on('data', (chunk: Buffer) => send({ data: chunk.toString('base64') }));
process.stdin.on('end', () => send({ end: true }));
// A client that stopped reading our stdout: what we write is lost, as it would be for any server.
process.stdout.on('error', () => undefined);
socket.on('data', (chunk) => process.stdout.write(chunk));
let dying: NodeJS.Signals | undefined;
// Told of a signal, it dies of it as a server would; otherwise the run closed the connection: the server exits.
const die = () => (dying ? process.kill(process.pid, dying) : process.exit(0));
socket.on('close', die);
socket.on('error', (err) => {
  process.stderr.write(`stdio-bridge: the run is gone (${err.message})\n`);
  process.exit(1);
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
  process.once(signal, () => {
    dying = signal;
    send({ signal });
    socket.end();
    setTimeout(die, 1000).unref();
  });
