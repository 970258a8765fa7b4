import { describe, expect, it, vi } from "vitest";

describe("the shell parser's compile hook when the parser cannot be loaded", () => {
  it("undoes what it set, at each try", async () => {
    vi.doMock("web-tree-sitter", () => {
      throw new Error("cannot load web-tree-sitter");
    });
    try {
      const { beforeShellCompile } = await import("./compile-hook.js");
      const { loadShellReader } = await import("./parse.js");
      let set = 0;
      beforeShellCompile(async () => {
        set++;
        return () => set--;
      });
      for (let i = 0; i < 2; i++) {
        await expect(loadShellReader()).rejects.toThrow();
        expect(set).toBe(0);
      }
      beforeShellCompile(undefined);
    } finally {
      vi.doUnmock("web-tree-sitter");
    }
  });
});
