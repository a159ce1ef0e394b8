/**
 * Lint rule `own/no-proto-lookup` (issue 37): a table written as an object literal inherits
 * Object.prototype, so `TABLE[input]` answers `constructor`, `toString`, `__proto__`,
 * `hasOwnProperty`… with a function or an object, where an unknown name must be refused (role
 * `constructor` read as valid, `cli constructor FILE` a fault of the program). A lookup indexed by
 * input goes through a Map, an `Object.create(null)` table or an own-key check (`Object.hasOwn`).
 *
 * What it flags, without type information (cheap enough for every file):
 * - a variable initialised with an object literal (through `as`, `satisfies` or `<T>`) whose
 *   declared type has string keys (`Record<string, …>`, also inside `Readonly<…>` / `Partial<…>`,
 *   or `{ [k: string]: … }`): such a table is for lookups by any name, and an exported one is read
 *   where this file cannot see (an output object that takes keys from input is made with
 *   `Object.create(null)` too: `out['__proto__'] = v` sets its prototype and loses the key);
 * - `T[key as …]` on an object-literal table of this file: a cast is how input reaches a table
 *   typed by a closed key union;
 * - `key in T` on an object-literal table of this file (`in` reads the prototype too).
 * A table typed by a closed key union (`Record<RuleId, …>`) indexed by a value of that type is left
 * alone: the type checker holds the key to the table's own names.
 */

/** The type annotation's key is `string` (Record<string, …>, an index signature), through wrappers. */
function hasStringKeys(type) {
  if (!type) return false;
  if (type.type === 'TSTypeReference') {
    const name = type.typeName.type === 'Identifier' ? type.typeName.name : '';
    const args = type.typeArguments?.params ?? type.typeParameters?.params ?? [];
    if (name === 'Record') return args[0]?.type === 'TSStringKeyword';
    if (name === 'Readonly' || name === 'Partial' || name === 'Required')
      return hasStringKeys(args[0]);
    return false;
  }
  if (type.type === 'TSTypeLiteral')
    return type.members.some(
      (m) =>
        m.type === 'TSIndexSignature' &&
        m.parameters[0]?.typeAnnotation?.typeAnnotation?.type === 'TSStringKeyword',
    );
  return false;
}

/** The object literal under casts, or null. */
function literalOf(init) {
  let node = init;
  while (
    node &&
    (node.type === 'TSAsExpression' ||
      node.type === 'TSSatisfiesExpression' ||
      node.type === 'TSTypeAssertion')
  )
    node = node.expression;
  return node?.type === 'ObjectExpression' ? node : null;
}

/** A key written out in the source (a literal, a template with no expression). */
function isFixedKey(node) {
  return (
    node.type === 'Literal' ||
    (node.type === 'TemplateLiteral' && node.expressions.length === 0) ||
    (node.type === 'UnaryExpression' && node.argument.type === 'Literal')
  );
}

function isCast(node) {
  return node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion';
}

/** @type {import('eslint').Rule.RuleModule} */
export const noProtoLookup = {
  meta: {
    type: 'problem',
    docs: { description: 'Lookups indexed by input go through a table with no prototype.' },
    schema: [],
    messages: {
      table:
        "'{{name}}' is an object literal with string keys: a lookup by name finds 'constructor', 'toString', '__proto__' … on its prototype. Use a Map or Object.create(null) (issue 37).",
      lookup:
        "'{{name}}[… as …]' reads an object literal with a key cast from input: 'constructor', 'toString', '__proto__' … are found on its prototype. Use a Map, Object.create(null) or Object.hasOwn (issue 37).",
      in: "'… in {{name}}' finds Object.prototype's names too: use a Map, Object.create(null) or Object.hasOwn (issue 37).",
    },
  },
  create(context) {
    /** The declaration when a name refers to a `const` object-literal table of this file, else null. */
    const tableOf = (node) => {
      if (node.type !== 'Identifier') return null;
      let scope = context.sourceCode.getScope(node);
      while (scope) {
        const v = scope.set.get(node.name);
        if (v) {
          const def = v.defs[0];
          if (def?.type !== 'Variable' || !def.node.init || !literalOf(def.node.init)) return null;
          if (def.parent.kind !== 'const') return null;
          return {};
        }
        scope = scope.upper;
      }
      return null;
    };
    return {
      VariableDeclarator(node) {
        if (node.id.type !== 'Identifier' || !node.init || !literalOf(node.init)) return;
        if (hasStringKeys(node.id.typeAnnotation?.typeAnnotation))
          context.report({ node, messageId: 'table', data: { name: node.id.name } });
      },
      MemberExpression(node) {
        if (!node.computed || !isCast(node.property)) return;
        if (node.parent.type === 'AssignmentExpression' && node.parent.left === node) return;
        if (tableOf(node.object))
          context.report({ node, messageId: 'lookup', data: { name: node.object.name } });
      },
      BinaryExpression(node) {
        if (node.operator !== 'in' || isFixedKey(node.left)) return;
        if (tableOf(node.right))
          context.report({ node, messageId: 'in', data: { name: node.right.name } });
      },
    };
  },
};
