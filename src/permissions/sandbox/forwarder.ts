/**
 * The forwarder that runs inside the sandbox's network namespace, where only loopback exists. It
 * accepts the commands' proxy connections on 127.0.0.1 and carries each one, byte for byte, to
 * the filtering proxy's Unix socket outside; it decides nothing, the proxy does. It runs under
 * `bun` — the clew binary itself with BUN_BE_BUN=1 — so nothing needs installing.
 *
 * Two ways to run it (runner.ts picks): as the session's long-lived network holder, which every
 * command then joins with `nsenter --net` (as root: one start per session); or, where a process
 * cannot join another's namespace (an unprivileged user), in front of each command, which it
 * starts once it listens and whose exit status it returns. Arguments: the port, the proxy's
 * socket, then the command (bun keeps no `--` separator for a script).
 */
export const FORWARDER_SOURCE = String.raw`
const [port, socketPath, ...command] = [Number(process.argv[1]), process.argv[2], ...process.argv.slice(3)];
function relay(sink) {
  const pending = [];
  let ending = false;
  return {
    send(chunk) {
      if (pending.length > 0) return void pending.push(chunk.slice());
      const written = sink.write(chunk);
      if (written < chunk.length) pending.push(chunk.slice(Math.max(0, written)));
    },
    drain() {
      while (pending.length > 0) {
        const written = sink.write(pending[0]);
        if (written < pending[0].length) { pending[0] = pending[0].subarray(Math.max(0, written)); return; }
        pending.shift();
      }
      if (ending) sink.end();
    },
    end() { ending = true; if (pending.length === 0) sink.end(); },
  };
}
Bun.listen({
  hostname: "127.0.0.1",
  port,
  socket: {
    open(client) {
      const state = { early: [], up: undefined, toClient: relay(client), closed: false };
      client.data = state;
      Bun.connect({
        unix: socketPath,
        socket: {
          open(up) {
            if (state.closed) return void up.end();
            state.up = relay(up);
            for (const chunk of state.early.splice(0)) state.up.send(chunk);
          },
          data(_up, chunk) { state.toClient.send(chunk); },
          drain() { state.up?.drain(); },
          close() { state.toClient.end(); },
          error() { state.toClient.end(); },
        },
      }).catch(() => client.end());
    },
    data(client, chunk) {
      const state = client.data;
      if (state.up) state.up.send(chunk); else state.early.push(chunk.slice());
    },
    drain(client) { client.data.toClient.drain(); },
    close(client) { client.data.closed = true; client.data.up?.end(); },
    error(client) { client.data.closed = true; client.data.up?.end(); },
  },
});
if (command.length > 0) {
  // The command must not inherit BUN_BE_BUN: a compiled bun program it starts would act as bun.
  const child = Bun.spawn(["env", "-u", "BUN_BE_BUN", ...command], { stdio: ["inherit", "inherit", "inherit"] });
  const code = await child.exited;
  process.exit(child.signalCode ? 128 + (require("node:os").constants.signals[child.signalCode] ?? 0) : code);
} else {
  process.stdout.write("ready " + process.pid + "\n");
}
`;
