/**
 * Role order, written once as data: which roles may open a request and which may follow each
 * role (Bedrock B3/B4 over turns; Mistral M2 over rendered Chat messages). A provider gives its
 * table; the check reports the first role out of place at each position, and the provider words
 * it from the rule catalogue.
 */

/** A provider's role order. */
export interface RoleOrderSpec<R extends string> {
  /** Roles the first message may have; absent = any. */
  first?: readonly R[];
  /** The roles that may follow each role. */
  next: Readonly<Record<R, readonly R[]>>;
}

/** A role out of place at position `at`: first in the request, or after `prev`. */
export type RoleFinding<R extends string> =
  | { kind: 'first'; at: 0; role: R }
  | { kind: 'after'; at: number; prev: R; role: R };

/**
 * The role order at position `n` of a request (roles passed in, not looked up through a callback:
 * this runs per turn on every check, issue 17).
 * @param role the role at `n` (a turn's, or a rendered message's)
 * @param prev the role at `n - 1` (ignored at `n = 0`)
 * @returns the finding at `n`, or null when its role may stand there
 */
export function roleOrderAt<R extends string>(
  n: number,
  role: R,
  prev: R,
  spec: RoleOrderSpec<R>,
): RoleFinding<R> | null {
  if (n === 0)
    return spec.first && !spec.first.includes(role) ? { kind: 'first', at: 0, role } : null;
  return spec.next[prev]?.includes(role) ? null : { kind: 'after', at: n, prev, role };
}
