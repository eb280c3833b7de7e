import { answers, type Described, describes } from "../../../infra/openapi/views";
import * as z from "../../../lib/validation";

/**
 * The tie between a response schema and its view (infra/openapi/views.ts). Its refusals are
 * compile-time: each `@ts-expect-error` below fails `npm run typecheck` when the check lets that
 * drift through. At run time, each drift it refuses is one a real answer would show: the view's
 * value does not parse.
 */

/** A view as lib/ functions build them: a conditional spread, a value that may be undefined, an optional field. */
interface View {
  id: string;
  tags: readonly string[];
  captcha: { provider: "score"; minScore: number; siteKey: string } | { provider: "challenge"; siteKey: string } | null;
  note: string | undefined;
  extra?: number;
}
const value: View = {
  id: "a",
  tags: ["x"],
  captcha: { provider: "score", minScore: 0.5, siteKey: "k" },
  note: undefined,
  extra: 1,
};
/** What the view becomes on the wire. */
const json = JSON.parse(JSON.stringify(value)) as unknown;

const fields = {
  id: z.string(),
  tags: z.array(z.string()),
  captcha: z.nullable(
    z.strictObject({ provider: z.enum(["score", "challenge"]), minScore: z.optional(z.number()), siteKey: z.string() }),
  ),
  note: z.optional(z.string()),
  extra: z.optional(z.number()),
};
const { id: _id, ...withoutId } = fields;
const { extra: _extra, ...withoutExtra } = fields;

test("a schema that describes its view is passed through, and answers wraps it in the success envelope", () => {
  const schema = z.strictObject(fields);
  const described: Described = describes<View>()(schema);
  expect(described).toBe(schema);
  expect(z.safeParse(described, json).success).toBe(true);

  const body: Described = answers<() => Promise<View>>()(schema);
  expect(z.safeParse(body, { success: true, data: json }).success).toBe(true);
  expect(z.safeParse(body, json).success).toBe(false);
});

test("tsc refuses a schema that drifted from its view, and the view's value does not parse with it", () => {
  const drifted: Described[] = [
    // @ts-expect-error a renamed field
    describes<View>()(z.strictObject({ ...withoutId, identifier: z.string() })),
    // @ts-expect-error a field of the view the schema lacks
    describes<View>()(z.strictObject(withoutExtra)),
    // @ts-expect-error a field the view does not have
    describes<View>()(z.strictObject({ ...fields, more: z.string() })),
    // @ts-expect-error required, where the view may leave it out
    describes<View>()(z.strictObject({ ...fields, note: z.string() })),
    // @ts-expect-error narrower than the view's type
    describes<View>()(
      z.strictObject({
        ...fields,
        captcha: z.nullable(z.strictObject({ provider: z.literal("challenge"), siteKey: z.string() })),
      }),
    ),
    // @ts-expect-error answers checks its data the same way
    answers<() => Promise<View>>()(z.strictObject({ ...withoutId, identifier: z.string() })),
  ];
  const [answered] = drifted.splice(-1);
  for (const schema of drifted) expect(z.safeParse(schema, json).success).toBe(false);
  expect(z.safeParse(answered as Described, { success: true, data: json }).success).toBe(false);
});

test("a view typed `any` vouches for nothing", () => {
  const schema = z.strictObject(fields);
  // @ts-expect-error `any` is no view
  const described: Described = describes<any>()(schema);
  expect(described).toBe(schema);
});
