import type { Stack } from "aws-cdk-lib";
import { Annotations, Match } from "aws-cdk-lib/assertions";
import { loadApp } from "./support";

let stack: Stack;

beforeAll(() => {
  ({ stack } = loadApp());
});

describe("cdk-nag AwsSolutions", () => {
  test("no unsuppressed errors", () => {
    const errors = Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(errors.map((e) => `${e.id}: ${String(e.entry.data).split(":")[0]}`)).toEqual([]);
  });

  test("no unsuppressed warnings", () => {
    const warnings = Annotations.fromStack(stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(warnings.map((w) => `${w.id}: ${String(w.entry.data).split(":")[0]}`)).toEqual([]);
  });
});
