/**
 * Tables looked up by names that come from input (roles, block and record types, event names,
 * commands, ids) have no prototype (issue 37): an object literal answers `constructor`,
 * `toString`, `__proto__`, `hasOwnProperty`… with Object.prototype's members, where an unknown
 * name must be refused like any other. The lint rule `own/no-proto-lookup`
 * (scripts/eslint/ownKeyLookup.js) keeps string-keyed object-literal tables out of src/.
 */

/**
 * A lookup table by name, as a Map: `get` answers only the names written here.
 * @param entries the table's names and values (an object literal is fine: it is read once)
 */
export function nameTable<V>(entries: { readonly [name: string]: V }): ReadonlyMap<string, V> {
  return new Map(Object.entries(entries));
}

/**
 * An empty object with no prototype, for output that takes its keys from input: a key
 * `__proto__` is an own key like any other (on `{}`, `out['__proto__'] = v` sets the prototype and
 * the key is lost). JSON.stringify writes it as a plain object.
 */
export function ownRecord<V = unknown>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/**
 * `obj[key]` when `key` is the object's own property, else undefined (a parsed JSON object's
 * `constructor` is Object's unless the text wrote one).
 */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}
