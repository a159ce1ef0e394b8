/**
 * Lint rule `cache/no-module-cache` (issue 34): what the page knows about what is loaded has one
 * owner, the session (src/state/session/); no other module of the page keeps state of its own at
 * module level, where nothing can reset it, tests share it, and two copies drift apart. Selectors
 * stay at module scope: their memo storage is the session's (`memoWeak`, `memoN`).
 *
 * What it flags at a module's top level (also under `export`):
 * - `let` and `var`: a module-level variable that changes;
 * - `const x = new Map | Set | WeakMap | WeakSet | WeakRef | FinalizationRegistry | Array(…)`:
 *   a container filled later (a `Map` or `Set` declared `ReadonlyMap` / `ReadonlySet` is a
 *   constant: the type checker refuses a write); `const x = new C(…)` of any other class but the
 *   stateless ones (`RegExp`, `TextEncoder`, `Intl.*`, …): an instance holds what it was given;
 * - `const x = []` or `{}` (empty: only useful as storage) and `Object.create(null)` typed as
 *   anything but a readonly table;
 * - `const x = { a: null, m: new Map(), … }`: an object of slots filled later (a field that
 *   starts `null`, `null as T`, an empty array or object, or a container), unless `as const` or
 *   typed `Readonly<…>`;
 * - `const x = f(…)` where `f` is not in `allowCalls` (a call at module level may build a store,
 *   a worker handle or a closure over a cache: `createStore`, `jobWorker`, an IIFE…). The default
 *   list names calls that build constants or stateless things (React's `memo`, d3's `line`,
 *   `nameTable`, the session-owned memo helpers); the config adds its own with a reason.
 */

/** Containers whose contents change after they are made. */
const CONTAINERS = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'FinalizationRegistry',
  'Array',
]);

/** Classes whose instances are constants or stateless (anything else made at module level holds state). */
const CONSTANT_CLASSES = new Set([
  'RegExp',
  'TextEncoder',
  'TextDecoder',
  'Intl.NumberFormat',
  'Intl.DateTimeFormat',
  'Intl.PluralRules',
  'Intl.Collator',
  'Intl.Segmenter',
  'Intl.RelativeTimeFormat',
  'Intl.ListFormat',
  'URL',
  'Error',
]);

/** Calls that build a constant or a stateless value (selectors' memo storage is the session's). */
const DEFAULT_ALLOWED_CALLS = [
  'memoWeak',
  'memoN',
  'memoWeakBy',
  'memoLead',
  'sessionSlot',
  'memo',
  'forwardRef',
  'lazy',
  'createContext',
  'nameTable',
  'ownRecord',
  'Symbol',
  'Object.freeze',
  'bisector',
  'line',
];

/** The expression under casts. */
function unwrap(node) {
  let n = node;
  while (
    n &&
    (n.type === 'TSAsExpression' ||
      n.type === 'TSSatisfiesExpression' ||
      n.type === 'TSTypeAssertion' ||
      n.type === 'TSNonNullExpression')
  )
    n = n.expression;
  return n;
}

/** The dotted name of a callee (`a.b.c`), following curried and chained calls to their root. */
function calleeName(node) {
  let n = node;
  for (;;) {
    if (n.type === 'CallExpression') n = n.callee;
    else if (n.type === 'MemberExpression' && n.object.type === 'CallExpression') n = n.object;
    else break;
  }
  if (n.type === 'Identifier') return n.name;
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
    const head = calleeName(n.object);
    return head === null ? null : `${head}.${n.property.name}`;
  }
  return null;
}

/** The declared type's name (`ReadonlyMap<…>` → `ReadonlyMap`), or null. */
function typeName(declarator) {
  const t = declarator.id.typeAnnotation?.typeAnnotation;
  if (t?.type === 'TSTypeReference' && t.typeName.type === 'Identifier') return t.typeName.name;
  if (t?.type === 'TSTypeOperator' && t.operator === 'readonly') return 'readonly';
  return null;
}

const READONLY_TYPES = new Set([
  'ReadonlyMap',
  'ReadonlySet',
  'ReadonlyArray',
  'readonly',
  'Readonly',
]);

/** True for a value that only makes sense as a slot filled later (`null`, `[]`, `{}`, a container). */
function isEmptySlot(value) {
  const v = unwrap(value);
  if (!v) return false;
  if (v.type === 'Literal' && v.value === null) return true;
  if (v.type === 'ArrayExpression' && v.elements.length === 0) return true;
  if (v.type === 'ObjectExpression' && v.properties.length === 0) return true;
  return (
    v.type === 'NewExpression' && v.callee.type === 'Identifier' && CONTAINERS.has(v.callee.name)
  );
}

/** True for `x as const`. */
function asConst(node) {
  return (
    node?.type === 'TSAsExpression' &&
    node.typeAnnotation.type === 'TSTypeReference' &&
    node.typeAnnotation.typeName.type === 'Identifier' &&
    node.typeAnnotation.typeName.name === 'const'
  );
}

/** Why a top-level `const` declarator holds state, or null when it does not. */
function stateOf(declarator, allowed) {
  const init = unwrap(declarator.init);
  if (!init) return null;
  const readonly = READONLY_TYPES.has(typeName(declarator) ?? '') || asConst(declarator.init);
  if (
    init.type === 'ObjectExpression' &&
    !readonly &&
    init.properties.some((p) => p.type === 'Property' && isEmptySlot(p.value))
  )
    return 'a module-level object of slots filled later';
  if (init.type === 'NewExpression') {
    const kind = calleeName(init.callee) ?? 'an expression';
    if (CONSTANT_CLASSES.has(kind)) return null;
    if (!CONTAINERS.has(kind)) return `a module-level instance of ${kind}`;
    const weak = kind.startsWith('Weak') || kind === 'FinalizationRegistry';
    return readonly && !weak ? null : `a module-level ${kind}`;
  }
  if (init.type === 'ArrayExpression' && init.elements.length === 0 && !readonly)
    return 'an empty module-level array';
  if (init.type === 'ObjectExpression' && init.properties.length === 0 && !readonly)
    return 'an empty module-level object';
  if (init.type === 'CallExpression') {
    const name = calleeName(init);
    if (name === 'Object.create') return readonly ? null : 'a module-level Object.create table';
    if (name !== null && allowed.has(name)) return null;
    return `a module-level call of ${name ?? 'a function expression'}`;
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noModuleCache = {
  meta: {
    type: 'problem',
    docs: { description: 'No module-level cache or mutable state outside the session' },
    schema: [
      {
        type: 'object',
        properties: { allowCalls: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      state:
        '{{what}} ({{name}}) keeps state at module level: what the page knows about what is loaded belongs to the session (src/state/session/); a selector memoises with memoWeak/memoN (storage in the session), a constant is typed Readonly….',
    },
  },
  create(context) {
    const allowed = new Set([...DEFAULT_ALLOWED_CALLS, ...(context.options[0]?.allowCalls ?? [])]);
    /** @param {import('estree').Node} stmt */
    function check(stmt) {
      const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
      if (!decl || decl.type !== 'VariableDeclaration') return;
      for (const d of decl.declarations) {
        const name = d.id.type === 'Identifier' ? d.id.name : 'a pattern';
        const what = decl.kind === 'const' ? stateOf(d, allowed) : `a module-level ${decl.kind}`;
        if (what) context.report({ node: d, messageId: 'state', data: { what, name } });
      }
    }
    return {
      Program(program) {
        for (const stmt of program.body) check(stmt);
      },
    };
  },
};
