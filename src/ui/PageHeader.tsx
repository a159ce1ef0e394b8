/** The page's header: the title, the toolbar, the lesson toggle, the help popover and sharing. */
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { SampleEntry } from '../io/files.ts';
import type { Analysis } from '../model/analyze.ts';
import { defaultProviderOf } from '../model/validate/index.ts';
import type { Source } from '../state/store.ts';
import { HelpPopover } from './HelpPopover.tsx';
import { LearnToggle } from './learn/LearnPanel.tsx';
import { ShareBar } from './share/ShareBar.tsx';
import { SkipLink } from './SkipLink.tsx';
import { Toolbar } from './Toolbar.tsx';
import type { InspectionState } from './useInspection.ts';

export interface PageHeaderProps {
  samples: SampleEntry[];
  /** The source of the transcript on screen (null before the first). */
  shown: Source | null;
  onSample: (entry: SampleEntry) => void;
  onFile: (file: File) => void;
  /** A followed file changed: show it again (no new history entry). */
  onFileChanged: (file: File) => void;
  parsed: InspectionState['parsed'];
  analysis: Analysis | null;
  showText: boolean;
  onToggleText: () => void;
  help: boolean;
  setHelp: Dispatch<SetStateAction<boolean>>;
  /** The folder scan's entry, shown in the toolbar beside "Open file…" (`FleetEntry`). */
  scanEntry?: ReactNode;
}

export function PageHeader(p: PageHeaderProps) {
  const { analysis, parsed, setHelp } = p;
  return (
    <header className="top">
      <SkipLink />
      <div className="brand">
        <h1>Transcript Inspector</h1>
      </div>
      {/* Read after the title; shown under the header's one row of controls (styles.css). */}
      <p className="tagline" data-testid="tagline">
        Why did the LLM request with tool calls get an HTTP 400, and what does trimming cut?
      </p>
      <Toolbar
        samples={p.samples}
        shown={p.shown}
        onSample={p.onSample}
        onFile={p.onFile}
        onFileChanged={p.onFileChanged}
        detectedFormat={parsed?.candidates[0]?.format ?? analysis?.transcript.format ?? null}
        defaultProvider={analysis ? defaultProviderOf(analysis.transcript) : null}
        showText={p.showText}
        onToggleText={p.onToggleText}
        onHelp={() => setHelp((h) => !h)}
        scanEntry={p.scanEntry}
      />
      <LearnToggle samples={p.samples} />
      <HelpPopover open={p.help} onClose={() => setHelp(false)} />
      <ShareBar analysis={analysis} shown={p.shown} callReply={parsed?.callReply} />
    </header>
  );
}
