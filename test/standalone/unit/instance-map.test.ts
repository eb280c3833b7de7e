import { InstanceMap } from "../../../lib/intake/instance-map";

describe("InstanceMap: what a warm instance remembers, bounded", () => {
  test("past its limit it drops the entry used least recently", () => {
    const map = new InstanceMap<number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1); // a is now the most recently used
    map.set("c", 3);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([1, undefined, 3]);
  });

  test("setting a key again replaces its value without growing", () => {
    const map = new InstanceMap<string>(2);
    map.set("a", "old");
    map.set("b", "b");
    map.set("a", "new");
    map.set("c", "c");
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual(["new", undefined, "c"]);
  });

  test("dropOldestWhile drops from the least recently used end and stops at the first entry it keeps", () => {
    const map = new InstanceMap<number>(10);
    for (const [key, at] of [
      ["a", 1],
      ["b", 2],
      ["c", 9],
      ["d", 3],
    ] as const)
      map.set(key, at);
    map.dropOldestWhile((at) => at < 5);
    expect([map.get("a"), map.get("b"), map.get("c"), map.get("d")]).toEqual([undefined, undefined, 9, 3]);
  });

  test("clear and delete forget", () => {
    const map = new InstanceMap<number>(10);
    map.set("a", 1);
    map.set("b", 2);
    map.delete("a");
    expect(map.get("a")).toBeUndefined();
    map.clear();
    expect(map.get("b")).toBeUndefined();
  });
});
