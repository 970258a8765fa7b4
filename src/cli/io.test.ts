import { spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { directWriter } from "./io.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything there is to read from a non-blocking fd now. */
function drain(fd: number): Buffer {
  const out: Buffer[] = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    try {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      out.push(Buffer.from(buf.subarray(0, n)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") break;
      throw err;
    }
  }
  return Buffer.concat(out);
}

describe.skipIf(process.platform === "win32")("directWriter", () => {
  it("writes straight to the descriptor, and once it would block hands the rest and every later write to the stream, in order", () => {
    const fifo = join(dir, "out.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const streamed: string[] = [];
    const write = directWriter(writer, () => ({ write: (t: string | Uint8Array) => streamed.push(Buffer.from(t).toString("latin1")) }) as unknown as NodeJS.WritableStream);
    write("small é\n");
    expect(drain(reader).toString("utf8")).toBe("small é\n");
    expect(streamed).toEqual([]);
    // More than a pipe holds: the first part goes to the pipe, the rest to the stream.
    const big = Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join("");
    write(big);
    write("after\n");
    const direct = drain(reader).toString("latin1");
    expect(direct.length).toBeGreaterThan(0);
    expect(direct.length).toBeLessThan(big.length);
    expect(direct + streamed.join("")).toBe(big + "after\n");
    closeSync(reader);
    closeSync(writer);
  });

  it("throws what is not a full pipe (a closed reader) for the caller to report", () => {
    const fifo = join(dir, "closed.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(reader);
    const write = directWriter(writer, () => {
      throw new Error("not used");
    });
    expect(() => write("x")).toThrow(/EPIPE/);
    closeSync(writer);
  });
});
