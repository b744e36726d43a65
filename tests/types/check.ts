// Helpers of the typed tests (not a test file itself). They work at two
// levels: tsc checks the declared types at compile time (`Equal`, `Shape`),
// and tests/types/run.mjs runs the compiled tests against the built package,
// where `shape` compares what the library really returns with the keys the
// declaration lists.

/** Throws when `condition` is false. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** True when A and B are the same type (not merely assignable). */
export type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/** Compiles only when T is `true`: `expectType<Equal<typeof x, string>>()`. */
export function expectType<T extends true>(): T | void {}

/**
 * Every key of T, each marked as the declaration has it: a missing key, an
 * extra key or a wrong mark does not compile, so the literal passed to
 * `shape` spells out the declaration.
 */
export type Shape<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? 'optional' : 'required' };

/**
 * Checks at run time that `value` has every required key of its declared
 * type and no key the declaration lacks; returns `value`.
 */
export function shape<T extends object>(value: T, declared: Shape<T>, where: string): T {
  check(typeof value === 'object' && value !== null, `${where}: not an object`);
  const keys = declared as Record<string, 'optional' | 'required'>;
  for (const k of Object.keys(value)) {
    check(k in keys, `${where}: the library returns \`${k}\`, which the type does not declare`);
  }
  for (const [k, mark] of Object.entries(keys)) {
    if (mark === 'required') check(k in value, `${where}: the type requires \`${k}\`, which the library did not return`);
  }
  return value;
}

/** The thrown value, which must be an EvidenceValidatorError with `code`. */
export function throwsCode(f: () => unknown, code: string, where: string): Error & { code: string; details: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    const err = e as Error & { code: string; details: Record<string, unknown> };
    check(err.name === 'EvidenceValidatorError', `${where}: threw ${String(e)}`);
    check(err.code === code, `${where}: threw ${err.code}, expected ${code}`);
    return err;
  }
  throw new Error(`${where}: did not throw`);
}

/** {@link throwsCode} for a Promise that must reject. */
export async function rejectsCode(p: Promise<unknown>, code: string, where: string): Promise<void> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { code: string };
    check(err.name === 'EvidenceValidatorError' && err.code === code, `${where}: rejected with ${String(e)}, expected ${code}`);
    return;
  }
  throw new Error(`${where}: did not reject`);
}
