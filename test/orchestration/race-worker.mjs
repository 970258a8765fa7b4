// One racer: waits for the go file, then registers each id once and prints what it won.
// argv: folder goFile nowMs ttlSeconds id...
import { existsSync } from "node:fs";
import { FileSessionRegistry } from "../../dist/store/file-registry.js";

const [folder, go, nowMs, ttl, ...ids] = process.argv.slice(2);
const registry = new FileSessionRegistry(folder);
process.stdout.write("ready\n");
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!existsSync(go)) Atomics.wait(pause, 0, 0, 1);
const won = [];
for (const id of ids) {
  const r = registry.register(id, { now: new Date(Number(nowMs)), ttlSeconds: Number(ttl), agent: `racer-${process.pid}` });
  if (r.ok) won.push(id);
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, won })}\n`);
