/**
 * The two paths of docs/architecture.md#paths, checked against the import graph (issue 34): each
 * hop of the traces below is an import between the files it names (a call: the caller imports the
 * callee; an answer: the one answered imports the one answering, or the answer's type), the
 * paste → verdict path crosses six folder boundaries, each once (ui → state → engine → model and
 * back), and the page's code (ui, state) never calls the model's analysis or the engine's
 * inspect stages itself: what the worker answers is never computed again on the page.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** One import of a file: the file it names (relative to src/, `?query` dropped), type-only or not. */
interface Edge {
  to: string;
  typeOnly: boolean;
}

/** The imports of `src/<rel>` (static, `export … from`, dynamic), resolved to paths under src/. */
function importsOf(rel: string): Edge[] {
  const text = readFileSync(join('src', rel), 'utf8');
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const out: Edge[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith('.')) return;
    out.push({ to: normalize(join(dirname(rel), spec.replace(/\?.*$/, ''))), typeOnly });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const named = c?.namedBindings;
      const allTypes =
        c !== undefined &&
        (c.isTypeOnly ||
          (!c.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(n.moduleSpecifier.text, allTypes);
    } else if (
      ts.isExportDeclaration(n) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    ) {
      add(n.moduleSpecifier.text, n.isTypeOnly);
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      add(n.arguments[0].text, false);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The folder a file of src/ is in, as the layers name them (`ui`, `state`, `engine`, `model`, …). */
const layerOf = (rel: string): string => rel.split('/')[0] as string;

/**
 * One hop of a trace: `call` — `from` imports each of `to` (it calls them); `answer` — the answer
 * goes from `from` back to `to`, which imports `from` (its function or its answer's type).
 */
interface Hop {
  kind: 'call' | 'answer';
  from: string;
  to: string[];
  what: string;
}

const call = (from: string, to: string | string[], what: string): Hop => ({
  kind: 'call',
  from,
  to: typeof to === 'string' ? [to] : to,
  what,
});
const answer = (from: string, to: string, what: string): Hop => ({
  kind: 'answer',
  from,
  to: [to],
  what,
});

/** Paste → verdict (docs/architecture.md#paths, its steps 1–8). */
const PASTE_TO_VERDICT: Hop[] = [
  call('ui/input/useInputs.ts', 'state/store.ts', 'the pasted text: openSource'),
  answer('state/store.ts', 'state/session/session.ts', 'zustand tells the session: follow'),
  call('state/session/session.ts', 'state/session/view.ts', 'selectRequest'),
  call('state/session/session.ts', 'engine/client.ts', 'WorkerClient.inspect'),
  call('engine/client.ts', 'engine/inspect.worker.ts', 'postMessage to the worker'),
  call('engine/inspect.worker.ts', 'engine/run.ts', 'runRequest'),
  call('engine/run.ts', 'engine/inspect.ts', 'InspectStages: parse, safeInspect'),
  call(
    'engine/inspect.ts',
    ['model/parse/index.ts', 'model/analyze.ts', 'model/faultedAnalysis.ts'],
    'parseTranscript, analyze (faultTranscript with faults)',
  ),
  answer('model/analyze.ts', 'engine/run.ts', 'the analysis, back in the worker'),
  call('engine/run.ts', 'engine/pack.ts', 'the answer in columns'),
  answer('engine/pack.ts', 'engine/client.ts', 'joined on the page (onResult)'),
  answer('engine/client.ts', 'state/session/session.ts', 'the answer resolves Session.load'),
  call('state/session/session.ts', 'state/session/view.ts', 'nextView'),
  answer('state/session/session.ts', 'state/session/index.ts', 'the snapshot'),
  answer('state/session/index.ts', 'ui/useSession.ts', 'to its one adapter'),
  answer('ui/useSession.ts', 'ui/useInspection.ts', 'the view'),
  answer('ui/useInspection.ts', 'ui/App.tsx', 'deferred render'),
  call('ui/App.tsx', 'ui/InspectorMain.tsx', 'InspectorMain'),
  call('ui/InspectorMain.tsx', 'state/selectors.ts', 'selectViolationTargets, selectCounts'),
];

/** Budget → cut marker (docs/architecture.md#paths). */
const BUDGET_TO_MARKER: Hop[] = [
  call('ui/budget/EvictionSimulator.tsx', 'state/store.ts', 'setBudget'),
  call('ui/budget/useEviction.ts', 'state/eviction.ts', 'selectSimulator, with the budget read'),
  call('state/eviction.ts', 'state/cutMarkers.ts', 'selectCutMarkers'),
  call('state/eviction.ts', 'model/evict/policies.ts', 'simulatePolicy (two)'),
  answer('state/eviction.ts', 'ui/budget/useEviction.ts', 'the SimulatorModel'),
  answer('ui/budget/useEviction.ts', 'ui/InspectorMain.tsx', 'useTimelineEviction'),
  call('ui/InspectorMain.tsx', 'ui/Timeline.tsx', 'the timeline'),
  call('ui/Timeline.tsx', 'ui/TimelineGrid.tsx', 'its rows'),
  call('ui/TimelineGrid.tsx', 'ui/budget/RowEviction.tsx', 'the marker between two rows'),
];

function checkHops(hops: Hop[]): void {
  for (const h of hops)
    for (const to of h.to) {
      const [importer, imported] = h.kind === 'call' ? [h.from, to] : [to, h.from];
      const edges = importsOf(importer).map((e) => e.to);
      expect(edges, `${h.what}: ${importer} imports ${imported}`).toContain(imported);
    }
}

/** The folders a trace passes through, in order, each run of one folder said once. */
function folders(hops: Hop[]): string[] {
  const seq: string[] = [];
  for (const h of hops)
    for (const f of [h.from, ...h.to].map(layerOf)) if (seq.at(-1) !== f) seq.push(f);
  return seq;
}

describe('paste → verdict (docs/architecture.md#paths)', () => {
  it('each hop is an import between the files it names', () => checkHops(PASTE_TO_VERDICT));

  it('six folder boundaries, each crossed once: ui → state → engine → model → engine → state → ui', () => {
    const seq = folders(PASTE_TO_VERDICT);
    // Then the ui reads the verdict from a memoised selector (state, in the ui's render).
    expect(seq).toEqual(['ui', 'state', 'engine', 'model', 'engine', 'state', 'ui', 'state']);
    expect(seq.slice(0, 7).length - 1).toBe(6);
  });
});

describe('budget → cut marker (docs/architecture.md#paths)', () => {
  it('each hop is an import between the files it names', () => checkHops(BUDGET_TO_MARKER));

  it('the ui asks the state once (one selector) and never runs the simulator itself', () => {
    const fromEviction = readFileSync('src/ui/budget/useEviction.ts', 'utf8');
    expect(fromEviction.match(/select[A-Z]\w*\(/g)).toEqual(['selectSimulator(']);
  });
});

/** Every production .ts/.tsx file under src/<folder> (tests and test support left out). */
function productionFiles(folder: string): string[] {
  const list = ts.sys.readDirectory(join('src', folder), ['.ts', '.tsx']);
  return list
    .map((p) => p.slice(p.indexOf('src/') + 4))
    .filter((p) => !/\.(test|spec)\.tsx?$/.test(p) && !/(^|\/)testing\//.test(p));
}

/**
 * What the worker computes and sends (parse, analysis, faults applied): the page never runs it
 * (the engine's synchronous fallback, engine/syncClient.ts, runs it only when no worker can).
 */
const ENGINE_ONLY = [
  'model/analyze.ts',
  'model/parse/index.ts',
  'model/faultedAnalysis.ts',
  'engine/inspect.ts',
  'engine/run.ts',
  'engine/syncClient.ts',
];

/** Page code that parses on its own, with why: never a text the worker answered. */
const PAGE_PARSES: ReadonlyMap<string, string> = new Map([
  [
    'state/diffView.ts → model/parse/index.ts',
    "the diff's other side: a second text pasted into the diff view, which no worker has read",
  ],
]);

describe('nothing the worker answers is computed again on the page (issue 34)', () => {
  it.each(['ui', 'state'])('no production file of src/%s calls parse, analyze or faults', (f) => {
    const offending = productionFiles(f).flatMap((file) =>
      importsOf(file)
        .filter((e) => !e.typeOnly && ENGINE_ONLY.includes(e.to))
        .map((e) => `${file} → ${e.to}`)
        .filter((x) => !PAGE_PARSES.has(x)),
    );
    expect(offending).toEqual([]);
  });

  it('every exception is still one (the list does not outlive its reason)', () => {
    for (const x of PAGE_PARSES.keys()) {
      const [file, to] = x.split(' → ') as [string, string];
      expect(
        importsOf(file).some((e) => e.to === to && !e.typeOnly),
        x,
      ).toBe(true);
    }
  });

  it('the faults are applied in the engine: state/faults.ts reads the answer only', () => {
    const edges = importsOf('state/faults.ts').filter((e) => !e.typeOnly);
    expect(edges.map((e) => e.to)).not.toContain('model/analyze.ts');
    expect(edges.map((e) => e.to)).not.toContain('model/faultedAnalysis.ts');
  });
});
