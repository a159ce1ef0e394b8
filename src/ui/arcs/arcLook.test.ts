import { describe, expect, it } from 'vitest';
import type { ToolPair } from '../../model/pairing.ts';
import type { BrokenPairs } from '../../state/selectors.ts';
import type { ArcPath } from './arcLayout.ts';
import { arcLook } from './arcLook.ts';
import {
  PAIR_ERROR,
  PAIR_FINE,
  PAIR_WARNING,
  type PairLevel,
  type PairSignals,
} from './pairSignals.ts';

const arc = (over: Partial<ArcPath> = {}): ArcPath => ({
  id: 'p0',
  status: 'answered',
  broken: false,
  partial: false,
  lane: 0,
  x: 0,
  from: { kind: 'point', y: 0, message: 1 },
  to: { kind: 'point', y: 10, message: 2 },
  d: '',
  ...over,
});

/** Signals giving every pair one level, with no violation naming any pair. */
const signalsAt = (level: PairLevel): PairSignals => ({
  level: new Uint8Array([level]),
  errorArcs: level === PAIR_ERROR ? 1 : 0,
  warningArcs: level === PAIR_WARNING ? 1 : 0,
  broken: {
    providerLabel: 'Anthropic Messages',
    violation: () => undefined,
  } as unknown as BrokenPairs,
  levelOf: () => level,
});

const pair = { key: 'p0', name: 'get_weather', id: 'toolu_01' } as ToolPair;

describe('arcLook', () => {
  it('without signals, pairing alone decides: anything but answered is red', () => {
    expect(arcLook(arc(), undefined, undefined, true, pair)).toEqual({
      broken: false,
      warned: false,
      title: 'answered',
      label: 'get_weather toolu_01: answered',
    });
    const open = arcLook(
      arc({ status: 'unanswered', partial: true }),
      undefined,
      undefined,
      false,
      pair,
    );
    expect(open.broken).toBe(true);
    expect(open.title).toBe('no tool_result (partial answer: a sibling was answered)');
    expect(open.label).toBe('get_weather toolu_01: no tool_result (partial answer)');
  });

  it('an eviction that cuts one end turns the arc red; both ends evicted is neither red nor amber', () => {
    const cut = arcLook(arc(), 'cut', signalsAt(PAIR_FINE), true, pair);
    expect(cut).toMatchObject({ broken: true, warned: false, title: 'answered — after eviction' });
    const gone = arcLook(arc({ status: 'unanswered' }), 'gone', signalsAt(PAIR_ERROR), false, pair);
    expect(gone).toMatchObject({ broken: false, warned: false });
    expect(gone.title).toBe('no tool_result — both ends evicted');
    expect(arcLook(arc(), 'gone', signalsAt(PAIR_WARNING), true, pair).warned).toBe(false);
  });

  it('a warning is amber and says no error names the pair; the name falls back without a pair', () => {
    const look = arcLook(
      arc({ status: 'duplicate_id' }),
      'kept',
      signalsAt(PAIR_WARNING),
      true,
      undefined,
    );
    expect(look.broken).toBe(false);
    expect(look.warned).toBe(true);
    expect(look.title).toBe(
      'duplicate tool_use id — a warning: no Anthropic Messages error names this pair, the request is accepted',
    );
    expect(look.label).toBe(`tool (no id): ${look.title}`);
  });
});
