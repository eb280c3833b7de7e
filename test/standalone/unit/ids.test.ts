import { isId, newId, safeEqual } from "../../../lib/ids";

describe("ids", () => {
  test("ids are prefixed by type and unguessable", () => {
    const id = newId("site");
    expect(isId("site", id)).toBe(true);
    expect(isId("webhook", id)).toBe(false);
    expect(new Set(Array.from({ length: 1000 }, () => newId("user"))).size).toBe(1000);
  });

  test("safeEqual compares whole values", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
