import fc from "fast-check";
import { z } from "zod";

/**
 * fast-check arbitraries DERIVED from our zod 4 schemas: the walker reads each schema's definition
 * (object shape, string formats and lengths, number bounds, enums, optionality) and its registry
 * metadata (for rules kept in refinements, e.g. URLs and names), then mixes in JSON noise at every
 * level (wrong types, missing required keys, unknown keys) so invalid inputs are explored too.
 */

/** A zod 4 schema or check definition: the fields this walker reads, each present on some kinds only. */
interface Def {
  type: string;
  check?: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  value?: number;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  values?: unknown[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
}
/** The registry metadata this walker reads (rules kept in refinements). */
interface Meta {
  type?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
}
const defOf = (s: z.ZodType) => s._zod.def as Def;
const checksOf = (s: z.ZodType) => (s._zod.def.checks ?? []).map((c) => c._zod.def as Def);
const metaOf = (s: z.ZodType) => (z.globalRegistry.get(s) ?? {}) as Meta;

export interface WalkOptions {
  /** Weight of JSON noise against the schema-shaped value at each node (0 = valid-shaped only). */
  noise?: number;
}

const noiseArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    null,
    "",
    0,
    -1,
    1.5,
    1e308,
    -0,
    true,
    "\u0000",
    " ",
    "null",
    [],
    {},
    "../../etc/passwd",
    "%00",
    "\ud800",
  ),
);

/** URLs worth trying: public, signed, private literal IPs in odd spellings, wrong schemes, credentials. */
const trickyUrls = fc.constantFrom(
  "https://media.example.com/a.mp3",
  "https://bucket.s3.amazonaws.com/a.mp3?X-Amz-Signature=abc%2F&X-Amz-Expires=300",
  "http://127.0.0.1:8790/a.mp3",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://[::ffff:10.0.0.1]/",
  "http://[fe80::1%25eth0]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://0/",
  "http://１２７．０．０．１/",
  "https://user:pass@example.com/",
  "ftp://example.com/a",
  "javascript:alert(1)",
  "https://",
  "https://exa mple.com/",
  "https://xn--nxasmq6b.com/a",
  `https://example.com/${"a".repeat(4077)}`,
  `https://example.com/${"a".repeat(4078)}`,
);

/** Mostly values the schema accepts, sometimes just outside its bounds. */
const mostly = <T>(valid: fc.Arbitrary<T>, ...edges: fc.Arbitrary<T>[]) =>
  fc.oneof({ weight: 6, arbitrary: valid }, ...edges.map((arbitrary) => ({ weight: 1, arbitrary })));

function stringArb(s: z.ZodType): fc.Arbitrary<string> {
  const def = defOf(s);
  const meta = metaOf(s);
  const checks = checksOf(s);
  if (def.format === "guid" || def.format === "uuid") {
    return mostly(
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
      fc.constant("00000000-0000-0000-0000-000000000000"),
      fc.string({ maxLength: 36 }),
    );
  }
  if (meta.format === "uri")
    return mostly(fc.webUrl({ withQueryParameters: true, withFragments: true }), trickyUrls, fc.string());
  if (meta.type === "integer") {
    // Query parameters declared as integers arrive as strings.
    return mostly(
      fc.integer({ min: 1, max: 99 }).map(String),
      fc.integer({ min: -5, max: 150 }).map(String),
      fc.bigInt().map(String),
      fc.double().map(String),
      fc.string({ maxLength: 4 }),
    );
  }
  const regex = checks.find((c) => c.check === "string_format" && c.format === "regex")?.pattern as RegExp | undefined;
  if (regex) return mostly(fc.stringMatching(regex), fc.string({ maxLength: 10 }));
  const min = checks.find((c) => c.check === "min_length")?.minimum ?? meta.minLength ?? 0;
  const max = Math.min(checks.find((c) => c.check === "max_length")?.maximum ?? meta.maxLength ?? 64, 4096);
  // "binary" units are single code points, which is how the schemas count characters.
  return mostly(
    fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, 48) }),
    fc.string({ unit: "binary", minLength: Math.max(0, max - 1), maxLength: max + 1 }), // around the upper bound
    fc.constant(""),
  );
}

function numberArb(s: z.ZodType): fc.Arbitrary<number> {
  const checks = checksOf(s);
  const isInt = checks.some((c) => c.check === "number_format" && /int/.test(c.format ?? ""));
  const min = checks.find((c) => c.check === "greater_than")?.value as number | undefined;
  const max = checks.find((c) => c.check === "less_than")?.value as number | undefined;
  const step = (checks.find((c) => c.check === "multiple_of")?.value as number | undefined) ?? 1;
  const lo = min ?? -1e6;
  const hi = max ?? 1e10;
  if (isInt) {
    // Inside the range on the step, plus the neighbourhood of each bound (off-by-one, odd values).
    return mostly(
      fc.integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) }).map((n) => n * step),
      fc.integer({ min: Math.floor(lo) - 3, max: Math.floor(lo) + 3 }),
      fc.integer({ min: Math.floor(hi) - 3, max: Math.floor(hi) + 3 }),
      fc.integer(),
    );
  }
  return mostly(fc.double({ min: lo, max: hi, noNaN: true }), fc.double({ min: lo - 1, max: hi + 1, noNaN: true }));
}

function objectArb(s: z.ZodType, opts: WalkOptions): fc.Arbitrary<Record<string, unknown>> {
  const shape = defOf(s).shape as Record<string, z.ZodType>;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [key, child] of Object.entries(shape)) {
    model[key] = zodArbitrary(child, opts);
    if (defOf(child).type !== "optional") required.push(key);
  }
  const shaped = fc.record(model, { requiredKeys: required as never[] }) as fc.Arbitrary<Record<string, unknown>>;
  if (!opts.noise) return shaped;
  // Structural noise: drop a required key, or add unknown ones.
  return fc
    .tuple(
      shaped,
      fc.nat(15),
      fc.constantFrom(...required, ""),
      fc.dictionary(fc.string({ maxLength: 8 }), noiseArb, { maxKeys: 2 }),
    )
    .map(([obj, roll, drop, extra]) => {
      if (roll === 0 && drop) {
        const { [drop]: _gone, ...rest } = obj;
        return rest;
      }
      if (roll === 1) return { ...obj, ...extra };
      return obj;
    });
}

/** The arbitrary for any schema built from the zod 4 types this API uses. */
export function zodArbitrary(schema: z.ZodType, opts: WalkOptions = { noise: 1 }): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  let shaped: fc.Arbitrary<unknown>;
  switch (def.type) {
    case "object":
      shaped = objectArb(schema, opts);
      break;
    case "string":
      shaped = stringArb(schema);
      break;
    case "number":
      shaped = numberArb(schema);
      break;
    case "boolean":
      shaped = fc.boolean();
      break;
    case "enum":
      shaped = fc.constantFrom(...Object.values(def.entries as Record<string, string>));
      break;
    case "literal":
      shaped = fc.constantFrom(...(def.values as unknown[]));
      break;
    case "optional":
    case "nullable":
    case "default":
      return zodArbitrary(def.innerType!, opts);
    case "array":
      shaped = fc.array(zodArbitrary(def.element!, opts), { maxLength: 4 });
      break;
    case "pipe": {
      // z.preprocess(fn, out): the input side is a transform; generate what `out` accepts, plus a bare element.
      const target = defOf(def.in!).type === "transform" ? def.out! : def.in!;
      const t = defOf(target);
      shaped =
        t.type === "array"
          ? fc.oneof(zodArbitrary(target, opts), zodArbitrary(t.element!, opts))
          : zodArbitrary(target, opts);
      break;
    }
    default:
      shaped = noiseArb;
  }
  if (!opts.noise) return shaped;
  return fc.oneof({ weight: 30, arbitrary: shaped }, { weight: opts.noise, arbitrary: noiseArb });
}

/** Query parameters as a URL search string (arrays repeat the key; non-strings are stringified). */
export function toQueryString(value: unknown): string {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    for (const item of Array.isArray(v) ? v : [v])
      params.append(k, typeof item === "string" ? item : JSON.stringify(item));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}
