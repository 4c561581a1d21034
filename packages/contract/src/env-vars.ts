import { z } from "zod";

/**
 * How the Worker and the renderer read their environment variables: each side has one zod schema of them,
 * parsed once, and a bad value fails with a message naming the variable instead of falling back silently.
 * Unset and blank are the same (a variable cannot be "set to nothing"): both take the schema's default.
 */

/** A number variable (`Number()` syntax) that `ok` accepts; `rule` says which in the error. */
export const numberVar = (rule: string, ok: (n: number) => boolean) =>
  z.string({ error: `must be ${rule}` }).transform((raw, ctx) => {
    const n = Number(raw);
    if (!ok(n)) ctx.addIssue({ code: "custom", message: `must be ${rule} (got "${raw}")` });
    return n;
  });

/** An integer variable in [min, max]. */
export const intVar = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  numberVar(
    max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`,
    (n) => Number.isInteger(n) && n >= min && n <= max,
  );

/** The variables `schema` describes, read from `env`; throws one Error naming every bad variable. */
export function parseVars<S extends z.ZodType>(schema: S, env: object): z.output<S> {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => !(typeof v === "string" && v.trim() === "")));
  const parsed = schema.safeParse(set);
  if (parsed.success) return parsed.data;
  const named = parsed.error.issues.map(({ path, message }) => {
    const name = path.join(".");
    return message.startsWith(name) ? message : `${name} ${message}`;
  });
  throw new Error(`invalid configuration: ${named.join("; ")}`);
}
