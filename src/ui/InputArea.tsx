/**
 * The input area under the header: the hint for a first-time reader of a sample, the banner for
 * input that could not be taken, the load status of a streamed file (or a status while text is
 * analysed), and the text box.
 */
import type { SampleEntry } from '../io/files.ts';
import type { ParseError } from '../model/types.ts';
import { useAppStore, type Source } from '../state/store.ts';
import { describeSource } from './format.ts';
import type { FileError, SetFileError } from './input/fileError.ts';
import { InputHint } from './InputHint.tsx';
import { LoadStatus, loadStatusShows } from './LoadStatus.tsx';
import { ParseErrorBanner } from './ParseErrorBanner.tsx';
import { SourceTextBox } from './SourceTextBox.tsx';
import type { LoadState } from './useInspection.ts';

export interface InputAreaProps {
  samples: SampleEntry[];
  /** The source of the transcript on screen. */
  shown: Source | null;
  /** The error the banner shows (a file error first, else the parse error). */
  error: ParseError | null;
  fileError: FileError | null;
  /** Whether a transcript is on screen (the banner says it stays). */
  keptPrevious: boolean;
  load: LoadState | null;
  /**
   * An answer is awaited (a paste, a sample, a new provider) or not yet drawn (a file read whole
   * included, once its progress bar went): a status says so.
   */
  working: boolean;
  onCancelLoad: () => void;
  showText: boolean;
  onShowText: () => void;
  onFile: (f: File) => void;
  setFileError: SetFileError;
  /** The transcript shown is valid (null: none yet), and how to show a broken sample instead. */
  shownValid?: boolean | null;
  onBrokenSample?: () => void;
  /** A fleet scan is on screen, not the sample: no invitation about the sample. */
  fleetShown?: boolean;
}

export function InputArea(p: InputAreaProps) {
  const { shown } = p;
  const lesson = useAppStore((s) => s.lesson);
  // Input that failed to parse stays in the box to be fixed there (the source is the one shown).
  const boxSource = useAppStore((s) => s.rejected?.source ?? s.source);
  const editSource = useAppStore((s) => s.editSource);
  return (
    <section className="input-area" aria-label="Your transcript">
      {shown?.origin === 'sample' && lesson === null && !p.fleetShown && (
        <InputHint
          sample={p.samples.find((x) => x.id === shown.sampleId)?.title ?? shown.name}
          onFile={p.onFile}
          onPasteBox={p.onShowText}
          valid={p.shownValid === true}
          onBroken={p.onBrokenSample}
        />
      )}
      {p.error && (
        <ParseErrorBanner
          error={p.error}
          keptPrevious={p.keptPrevious}
          unreadFile={p.fileError?.file}
          shown={describeSource(shown)}
        />
      )}
      {p.load && <LoadStatus load={p.load} onCancel={p.onCancelLoad} />}
      {p.working && !loadStatusShows(p.load) && (
        // Shown after a short delay (CSS), so a quick answer does not flash it.
        <div className="load-status working" role="status" data-testid="working">
          Analysing the transcript…
        </div>
      )}
      {p.showText && (
        <SourceTextBox source={boxSource} editSource={editSource} setFileError={p.setFileError} />
      )}
    </section>
  );
}
