// The layers of src/ as an allow-list (docs/architecture.md, "Layers"): each folder names what it
// may import, and everything else is refused — static imports, `export … from`, dynamic
// `import()` and `require()` alike. Enforced by the `layers/imports` and `layers/file-kind` rules
// below (eslint.config.js); scripts/lint.test.ts feeds each rule files that must break it.
import path from 'node:path';

/** Packages that are plain computation: any layer may use them. */
const PURE = ['diff', 'fflate', 'gpt-tokenizer', 'jsonc-parser', 'zod'];

/** What test support (a file in a `testing/` folder) may use beside its layer's own. */
// `ai` and `@langchain/core`: the libraries whose trimmers the library-backed eviction policies
// are checked against, offline (src/model/testing/evictLibraries.ts, dev dependencies).
const TEST_PACKAGES = ['fast-check', 'vitest', 'vitest/node', 'ai', '@langchain/core'];

/**
 * What each top folder of src/ may import: `folders` are paths below src/ (a folder, or one file
 * that is the folder's door), `packages` are npm names (a name allows its subpaths), `node` says
 * whether `node:*` is allowed, `tsx` whether the folder holds React components.
 * @type {Record<string, {folders: string[], packages: string[], node?: boolean, tsx?: boolean, why: string}>}
 */
export const LAYERS = {
  model: {
    folders: ['model'],
    packages: PURE,
    why: 'src/model is pure TypeScript: it runs in a worker, in Node and in the package',
  },
  engine: {
    folders: ['engine', 'model'],
    packages: PURE,
    why: 'src/engine runs the model off the page thread and hands answers to the sink (engine → model)',
  },
  state: {
    folders: ['state', 'engine', 'model'],
    packages: [...PURE, 'zustand'],
    why: 'src/state owns the page data (state → engine → model), never the UI',
  },
  ui: {
    folders: ['ui', 'state', 'io', 'model', 'engine/client.ts', 'engine/limits.ts'],
    packages: [
      ...PURE,
      'react',
      'react-dom',
      'zustand',
      '@tanstack/react-virtual',
      'd3-array',
      'd3-scale',
      'd3-shape',
    ],
    tsx: true,
    why: 'src/ui reaches the engine through the state; only engine/client.ts and engine/limits.ts are its door; d3 computes, React owns the DOM',
  },
  io: {
    folders: ['io', 'model'],
    // hyparquet: a scan's Parquet read in the page (issue 40), loaded only when one is opened.
    packages: [...PURE, 'hyparquet'],
    why: 'src/io reads files into the model (io → model)',
  },
  cli: {
    folders: ['cli', 'model'],
    // `scan` (issue 40): DuckDB writes and queries the Parquet (its C API bindings, under
    // node-api, copy a column of cuts into a vector whole), piscina is its worker pool, the AWS
    // SDK reads S3, tinyglobby expands globs. All kept outside the bundle (scripts/buildCli.js).
    packages: [
      ...PURE,
      '@duckdb/node-api',
      '@duckdb/node-bindings',
      'piscina',
      '@aws-sdk/client-s3',
      'tinyglobby',
    ],
    node: true,
    why: 'src/cli is headless and depends on the model only (cli → model)',
  },
  lib: {
    folders: ['lib', 'model'],
    packages: PURE,
    why: 'src/lib is the published package: the model and web-standard APIs only (lib → model)',
  },
  testing: {
    folders: ['testing', 'model'],
    packages: [],
    why: 'src/testing is test support: it finds the shared corpus for the corpus suite',
  },
  '.': {
    folders: ['state', 'ui'],
    packages: ['react', 'react-dom'],
    tsx: true,
    why: 'src/main.tsx mounts the page',
  },
};

const SRC = `${path.sep}src${path.sep}`;

/** The path below src/ of `file` with forward slashes, or undefined outside src/. */
export function underSrc(file) {
  const at = file.lastIndexOf(SRC);
  return at < 0
    ? undefined
    : file
        .slice(at + SRC.length)
        .split(path.sep)
        .join('/');
}

/** The layer of a path below src/ ('.' for a file at src/'s top). */
export function layerOf(rel) {
  const slash = rel.indexOf('/');
  return slash < 0 ? '.' : rel.slice(0, slash);
}

/** A test file: it may import anything. */
export function isTest(rel) {
  return /\.(test|spec)\.tsx?$/.test(rel);
}

/** Test support: a file in a `testing/` folder. Production code never imports it. */
export function isTestSupport(rel) {
  return /(^|\/)testing\//.test(rel);
}

/**
 * A file whose name says it is test support (`testing.ts`, `*.fixtures.ts`, `*.reference.ts`)
 * outside a `testing/` folder, where production code could import it unnoticed.
 */
export function isStrayTestSupport(rel) {
  if (isTest(rel) || isTestSupport(rel)) return false;
  return /(^|\/)(testing\.tsx?|[^/]+\.(fixtures|reference)(\.[^/]+)?\.tsx?)$/.test(rel);
}

function packageAllowed(spec, allowed) {
  return allowed.some((name) => spec === name || spec.startsWith(`${name}/`));
}

function folderAllowed(target, folders) {
  return folders.some((f) => target === f || target.startsWith(`${f}/`));
}

/** Why `spec` may not be imported by the file at `rel` (below src/), or undefined when it may. */
export function refusal(rel, spec, fromDir) {
  const layer = LAYERS[layerOf(rel)];
  if (!layer) return `src/${layerOf(rel)} is no known layer: name it in config/layers.js`;
  const support = isTestSupport(rel);
  const bare = spec.replace(/\?.*$/, '');
  if (bare.startsWith('.')) {
    const target = underSrc(path.resolve(fromDir, bare));
    if (target === undefined) return `${spec} leaves src/`;
    if (isTestSupport(target) && !support)
      return `${spec} is test support (a testing/ folder): tests only`;
    if (folderAllowed(target, layer.folders)) return undefined;
    return `${spec} is in src/${layerOf(target)}: ${layer.why} (may import src/${layer.folders.join(', src/')})`;
  }
  if (bare.startsWith('node:'))
    return layer.node || support ? undefined : `${spec}: ${layer.why}; node:* is for the CLI`;
  if (packageAllowed(bare, layer.packages)) return undefined;
  if (support && packageAllowed(bare, TEST_PACKAGES)) return undefined;
  return `${spec} is not on src/${layerOf(rel)}'s list (${layer.packages.join(', ') || 'none'}): ${layer.why}`;
}

function sourceOf(node) {
  const src = node.source;
  if (!src) return undefined;
  if (src.type === 'Literal' && typeof src.value === 'string') return src.value;
  if (src.type === 'TemplateLiteral' && src.expressions.length === 0)
    return src.quasis[0].value.cooked;
  return null;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer of src/ imports only what config/layers.js allows it.' },
    schema: [],
  },
  create(context) {
    const rel = underSrc(context.filename);
    if (rel === undefined || isTest(rel)) return {};
    const dir = path.dirname(context.filename);
    const check = (node, spec) => {
      if (spec === undefined) return;
      if (spec === null) {
        context.report({
          node,
          message: 'An import whose name is computed cannot be checked: name the module.',
        });
        return;
      }
      const why = refusal(rel, spec, dir);
      if (why) context.report({ node, message: why });
    };
    return {
      ImportDeclaration: (node) => check(node, sourceOf(node)),
      ExportNamedDeclaration: (node) => check(node, sourceOf(node)),
      ExportAllDeclaration: (node) => check(node, sourceOf(node)),
      ImportExpression: (node) => check(node, sourceOf(node)),
      TSImportType: (node) => {
        const arg = node.argument?.literal ?? node.argument;
        check(node, arg && typeof arg.value === 'string' ? arg.value : undefined);
      },
      CallExpression: (node) => {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
        const [arg] = node.arguments;
        check(node, arg?.type === 'Literal' && typeof arg.value === 'string' ? arg.value : null);
      },
    };
  },
};

const fileKindRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'React components (.tsx) live in src/ui (and src/main.tsx) only; test support in testing/ folders only.',
    },
    schema: [],
  },
  create(context) {
    const rel = underSrc(context.filename);
    if (rel !== undefined && isStrayTestSupport(rel))
      return {
        Program: (node) =>
          context.report({
            node,
            message: `src/${rel} is test support by its name: it belongs in a testing/ folder, which production code cannot import.`,
          }),
      };
    if (rel === undefined || !rel.endsWith('.tsx')) return {};
    const layer = LAYERS[layerOf(rel)];
    if (layer?.tsx) return {};
    return {
      Program: (node) =>
        context.report({
          node,
          message: `A .tsx file in src/${layerOf(rel)}: React components belong in src/ui (${layer?.why ?? 'no known layer'}).`,
        }),
    };
  },
};

/** The ESLint plugin: `layers/imports` and `layers/file-kind`. */
export const layersPlugin = { rules: { imports: importsRule, 'file-kind': fileKindRule } };
