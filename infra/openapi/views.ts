import * as z from "../../lib/validation";

/**
 * The compile-time tie between a response schema and the view it describes: both are reduced to
 * the JSON they become, and the two must be the same type, so a view whose field is renamed,
 * added, dropped, made optional or given another type fails `tsc` until its schema follows, and
 * the error names the keys that differ. The views are imported as types only.
 */

type Primitive = string | number | boolean | null | undefined;

/** Every key of every member of a union (`keyof` of a union gives only the shared ones). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/** The value at `K` across a union's members; `undefined` where a member lacks it. */
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : undefined) : never;

/** Whether some member lacks `K` or holds it optionally. */
type LacksIn<T, K extends PropertyKey> = T extends unknown
  ? K extends keyof T
    ? Pick<T, K> extends Required<Pick<T, K>>
      ? false
      : true
    : true
  : never;

/** A key JSON may leave out: absent or optional in some member, or possibly `undefined` (JSON.stringify drops it). */
type MayLack<T, K extends PropertyKey> = true extends LacksIn<T, K> ? true : undefined extends ValueAt<T, K> ? true : false;

/**
 * The object JSON holds for a union of object types: the union of their keys, each required only
 * when every member has it (a view's conditional spread `...(x ? { a } : {})` and a schema's
 * `a: z.optional(…)` are the same JSON).
 */
type JsonObject<T> = {
  [K in KeysOf<T> as MayLack<T, K> extends true ? never : K]: Json<ValueAt<T, K>>;
} & {
  [K in KeysOf<T> as MayLack<T, K> extends true ? K : never]?: Json<Exclude<ValueAt<T, K>, undefined>>;
} extends infer O
  ? { -readonly [K in keyof O]: O[K] }
  : never;

type JsonArray<T> = T extends readonly (infer E)[] ? Json<E>[] : never;

/** The JSON a value of type `T` becomes in an answer, as a type. */
type Json<T> =
  | Extract<T, Primitive>
  | JsonArray<Extract<T, readonly unknown[]>>
  | ([Exclude<T, Primitive | readonly unknown[]>] extends [never]
      ? never
      : JsonObject<Exclude<T, Primitive | readonly unknown[]>>);

/** Whether `A` and `B` are the same type (not merely assignable to each other either way). */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * Where two JSON types differ: objects by key, keeping only the keys that differ (each as
 * `"only in the view"`, `"only in the schema"`, `"optional in one only"` or their own difference),
 * arrays by element, anything else as both types.
 */
type Diff<V, S> =
  Same<V, S> extends true
    ? never
    : Same<Extract<V, Primitive>, Extract<S, Primitive>> extends true
      ? ShapeDiff<Exclude<V, Primitive>, Exclude<S, Primitive>>
      : { view: V; schema: S };

type ShapeDiff<V, S> = [V, S] extends [(infer A)[], (infer B)[]]
  ? Diff<A, B>[]
  : [V, S] extends [object, object]
    ? {
        [K in keyof V | keyof S as K extends keyof V & keyof S
          ? Same<Pick<V, K>, Pick<S, K>> extends true
            ? never
            : K
          : K]: K extends keyof V
          ? K extends keyof S
            ? Same<V[K], S[K]> extends true
              ? "optional in one only"
              : Diff<V[K], S[K]>
            : "only in the view"
          : "only in the schema";
      }
    : { view: V; schema: S };

declare const checked: unique symbol;
/** A schema `tsc` has checked against the view it describes: only `describes` and `answers` make one. */
export type Described = z.ZodMiniType & { readonly [checked]: true };

/** A view: a type, or a function whose (awaited) result the route answers. */
type ViewOf<T> = T extends (...args: never[]) => infer R ? Awaited<R> : T;

/** `Result` when `S` describes `View`, else the difference, which no `Described` slot accepts. */
type Checked<View, S extends z.ZodMiniType, Result> =
  Same<Json<ViewOf<View>>, Json<z.output<S>>> extends true
    ? Result
    : { schemaDiffersFromView: Diff<Json<ViewOf<View>>, Json<z.output<S>>> };

/**
 * `schema`, checked to describe `View` (`describes<typeof siteView>()(site)`, or a type). Put the
 * result where a `Described` is expected: a schema that differs is typed as the difference, which
 * `tsc` refuses there, printing it.
 */
export const describes =
  <View>() =>
  <S extends z.ZodMiniType>(schema: S) =>
    schema as unknown as Checked<View, S, S & Described>;

/** The spec's success envelope around `data`. */
const envelope = <T extends z.ZodMiniType>(data: T) => z.strictObject({ success: z.literal(true), data });

/**
 * The success body of a route whose handler answers `View` (the lib/ function it returns, as
 * `typeof fn`, or a type) in the envelope: `{ success: true, data }`, `data` checked to describe it.
 */
export const answers =
  <View>() =>
  <S extends z.ZodMiniType>(data: S) =>
    envelope(data) as unknown as Checked<View, S, Described>;
