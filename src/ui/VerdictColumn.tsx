/**
 * The side column: the lesson (it stays in view, its own box) over the verdict, which scrolls:
 * the faults applied, the repair, and the provider's violations.
 */
import type { SampleEntry } from '../io/files.ts';
import type { Analysis } from '../model/analyze.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { FaultedView } from '../state/faults.ts';
import {
  selectRequestRows,
  selectWindowVerdict,
  type ViolationTarget,
} from '../state/selectors.ts';
import { defaultProviderOf, ENDPOINTS } from '../model/validate/index.ts';
import { useAppStore } from '../state/store.ts';
import { FaultPanel } from './faults/FaultPanel.tsx';
import { RepairPanel } from './faults/RepairPanel.tsx';
import { RepairedNote } from './faults/repairedView.tsx';
import { LearnPanel } from './learn/LearnPanel.tsx';
import { useChosenCallError } from './strip/useChosenCallError.ts';
import { useWholeLogShown } from './strip/useWholeLogShown.ts';
import { ViolationsPanel, type ViolationsPanelProps } from './ViolationsPanel.tsx';

export interface VerdictColumnProps {
  samples: SampleEntry[];
  analysis: Analysis;
  faulted: FaultedView | null;
  tokens: TokenTable;
  providerLabel: string;
  targets: ViolationTarget[];
  currentMessage: number;
  onJump: (message: number) => void;
  /** The streamed file whose preview is drawn: the verdict is provisional. */
  provisional: string | null;
  /** Whether the parse shown can have a strip (`mayListRequests`), as the strip is told. */
  listable: boolean;
}

export function VerdictColumn(p: VerdictColumnProps) {
  const { faulted, providerLabel, onJump } = p;
  // The context window judged by the best count yet: the worker's exact count comes after the
  // first answer, and the verdict says when it changed it (`selectWindowVerdict`).
  const analysis = selectWindowVerdict(p.analysis, p.tokens).analysis;
  const repairView = useAppStore((s) => s.repairView);
  const sourceName = useAppStore((s) => s.source.name);
  const chosen = useChosenProvider(analysis);
  // A session log shown whole (no call chosen) is judged as one request no call sent.
  const wholeLog = useWholeLogShown(analysis.transcript.format);
  const recordedError = useChosenCallError(p.tokens.basis.encoding !== 'chars/4', p.listable);
  return (
    <div className="side-column">
      {/* The lesson stays in view (its own box) while the verdict below scrolls. */}
      <LearnPanel samples={p.samples} analysis={analysis} tokens={p.tokens} onJump={onJump} />
      <div className="side-scroll" tabIndex={-1}>
        <RepairedNote />
        {faulted && <FaultPanel view={faulted} provisional={p.provisional} />}
        {/* A repair of a preview would judge and export its first rows only. */}
        {faulted && repairView && !p.provisional && (
          <RepairPanel
            transcript={faulted.transcript}
            provider={analysis.provider}
            providerLabel={providerLabel}
            sourceName={sourceName}
            onJump={onJump}
          />
        )}
        <ViolationsPanel
          validation={analysis.validation}
          providerLabel={providerLabel}
          targets={p.targets}
          request={selectRequestRows(analysis)}
          currentMessage={p.currentMessage}
          onJump={onJump}
          provisional={p.provisional}
          chosen={chosen}
          wholeLog={wholeLog}
          recordedError={recordedError}
          model={{
            provider: analysis.provider,
            transcriptModel: analysis.transcript.settings.model,
          }}
        />
      </div>
    </div>
  );
}

/**
 * A provider the user chose that is not the request's own (a choice kept from an earlier
 * transcript, or made on purpose): the verdict says so and offers the request's own.
 */
function useChosenProvider(analysis: Analysis): ViolationsPanelProps['chosen'] {
  const provider = useAppStore((s) => s.provider);
  const setProvider = useAppStore((s) => s.setProvider);
  const own = defaultProviderOf(analysis.transcript);
  if (provider === null || provider === own) return null;
  return {
    own: ENDPOINTS[own].label,
    reset: () => setProvider(null),
  };
}
