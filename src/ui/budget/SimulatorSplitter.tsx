/**
 * The bar between the open eviction simulator and the timeline (newcomer finding: at 1440×900
 * the simulator's capped height cut its policy cards, with nothing saying it scrolls): drag it,
 * or focus it and press ↑/↓ (Home/End: least/most, Enter: back to the default), to share the
 * column's height between them. The share is a fraction of the column, so it holds across
 * window sizes; null is the default cap (styles.css `--sim-max`).
 */
import {
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { nameTable } from '../../model/own.ts';

/** Least and most of the column's height the simulator may take (fractions). */
export const SIM_SHARE_MIN = 0.15;
export const SIM_SHARE_MAX = 0.85;
const STEP = 0.05;

const clamp = (x: number) => Math.min(SIM_SHARE_MAX, Math.max(SIM_SHARE_MIN, x));

/** The simulator's share of the column (0–1) from its element's height and the column's. */
function shareOf(sim: Element | null, column: Element | null): number {
  const h = column?.getBoundingClientRect().height ?? 0;
  return h > 0 ? (sim?.getBoundingClientRect().height ?? 0) / h : 0.32;
}

/** The column and the simulator around the bar. */
function parts(el: Element): { column: Element | null; sim: Element | null } {
  const column = el.closest('.left');
  return { column, sim: column?.querySelector(':scope > .simulator') ?? null };
}

/**
 * The simulator's share of the column the user chose (null: the default cap), and the column's
 * style that applies it.
 */
export function useSimShare(): {
  share: number | null;
  setShare: (share: number | null) => void;
  style: CSSProperties | undefined;
} {
  const [share, setShare] = useState<number | null>(null);
  const style = share === null ? undefined : ({ '--sim-max': `${share * 100}%` } as CSSProperties);
  return { share, setShare, style };
}

export function SimulatorSplitter({
  share,
  onShare,
}: {
  /** The chosen share, or null for the default cap. */
  share: number | null;
  onShare: (share: number | null) => void;
}) {
  // The share shown and stepped from: the chosen one, else the default cap's, measured.
  const ref = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState(0.32);
  useEffect(() => {
    if (share !== null || !ref.current || typeof ResizeObserver === 'undefined') return;
    const { column, sim } = parts(ref.current);
    if (!column || !sim) return;
    const ro = new ResizeObserver(() => setMeasured(shareOf(sim, column)));
    ro.observe(sim);
    ro.observe(column);
    return () => ro.disconnect();
  }, [share]);
  const current = share ?? measured;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const key: ReadonlyMap<string, () => number | null> = nameTable({
      ArrowUp: () => clamp(current - STEP),
      ArrowDown: () => clamp(current + STEP),
      Home: () => SIM_SHARE_MIN,
      End: () => SIM_SHARE_MAX,
      Enter: () => null,
    });
    const next = key.get(e.key);
    if (!next) return;
    // The bar's keys only: the timeline's ↑/↓ navigation (on the window) does not see them.
    e.preventDefault();
    e.stopPropagation();
    onShare(next());
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const { column, sim } = parts(e.currentTarget);
    if (!column || !sim) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const top = sim.getBoundingClientRect().top;
    const height = column.getBoundingClientRect().height;
    const move = (ev: globalThis.PointerEvent) => onShare(clamp((ev.clientY - top) / height));
    const target = e.currentTarget;
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
  };
  const pct = Math.round(current * 100);
  return (
    <div
      ref={ref}
      className="sim-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Eviction simulator height (↑/↓ to resize, Enter for the default)"
      aria-valuemin={SIM_SHARE_MIN * 100}
      aria-valuemax={SIM_SHARE_MAX * 100}
      aria-valuenow={pct}
      title="Drag to share the height between the simulator and the timeline (double-click: default)"
      tabIndex={0}
      data-testid="sim-splitter"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onDoubleClick={() => onShare(null)}
    >
      <span aria-hidden="true" className="grip" />
    </div>
  );
}
