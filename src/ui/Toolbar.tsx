/**
 * Input and choices: samples menu, file picker, the text area toggle, format and provider pickers
 * (built from the PARSERS and VALIDATORS registries, so new formats appear on their own).
 */
import { useRef, useState, type ReactNode } from 'react';
import { PARSERS } from '../model/parse/registry.ts';
import type { FormatId, ProviderId } from '../model/types.ts';
import { ENDPOINT_GROUPS, ENDPOINTS } from '../model/validate/index.ts';
import type { SampleEntry } from '../io/files.ts';
import { sourceName, useAppStore, type Source } from '../state/store.ts';
import { FollowFile } from './input/FollowFile.tsx';

export interface ToolbarProps {
  samples: SampleEntry[];
  /** The source of the transcript on screen (a failed load keeps the previous one); null = none yet. */
  shown: Pick<Source, 'origin' | 'name' | 'fileName' | 'sampleId'> | null;
  onSample: (entry: SampleEntry) => void;
  onFile: (file: File) => void;
  /** A followed file changed (`FollowFile`): show it again. */
  onFileChanged: (file: File) => void;
  /** The format detected for the current text (or in use), for the picker's "auto" label. */
  detectedFormat: FormatId | null;
  /** The provider used when the user follows the format. */
  defaultProvider: ProviderId | null;
  showText: boolean;
  onToggleText: () => void;
  onHelp: () => void;
  /** The folder scan's entry (`FleetEntry`), beside "Open file…"; null while the fleet is shown. */
  scanEntry?: ReactNode;
}

const labelOfFormat = (id: FormatId | null) =>
  id ? (PARSERS.find((p) => p.id === id)?.label ?? id) : '—';
const labelOfProvider = (id: ProviderId | null) => (id ? ENDPOINTS[id].label : '—');

/**
 * The samples menu; its empty option names what is shown when that is not a sample.
 * @param source the source shown (or, before any transcript, the store's)
 */
function SamplePicker({
  samples,
  source,
  onSample,
}: {
  samples: SampleEntry[];
  source: Pick<Source, 'origin' | 'name' | 'fileName' | 'sampleId'>;
  onSample: (entry: SampleEntry) => void;
}) {
  const sampleValue = source.origin === 'sample' && source.sampleId ? source.sampleId : '';
  const none = source.name ? `(${source.origin}: ${sourceName(source)})` : '(your input)';
  return (
    <label className="sample-picker">
      <span className="lbl">Sample</span>
      <select
        data-testid="sample-select"
        value={sampleValue}
        // The select is narrower than long titles: the whole choice on hover.
        title={samples.find((s) => s.id === sampleValue)?.title ?? none}
        onChange={(e) => {
          const entry = samples.find((s) => s.id === e.target.value);
          if (entry) onSample(entry);
        }}
      >
        {/* A long file name is cut in the closed menu: whole on hover of the option too. */}
        <option value="" title={sampleValue ? undefined : none}>
          {sampleValue ? '' : none}
        </option>
        {samples.map((s) => (
          <option key={s.id} value={s.id} title={s.note}>
            {s.title}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Open file…" and the hidden file input it clicks (cleared after each pick, so picking the same
 * file again loads it again).
 */
function OpenFile({ onFile }: { onFile: (file: File) => void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => fileRef.current?.click()} data-testid="open-file">
        Open file…
      </button>
      <input
        ref={fileRef}
        type="file"
        hidden
        data-testid="file-input"
        accept=".json,.jsonl,.ndjson,.gz,.txt,.parquet,application/json"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = '';
        }}
      />
    </>
  );
}

/**
 * The format and provider pickers, from the PARSERS and endpoint registries (endpoints grouped by
 * the API they speak); the empty choice follows detection (format) or the input (provider: the
 * endpoint its URL, host or model id names, else the format's own).
 */
function FormatAndProvider({
  detectedFormat,
  defaultProvider,
}: {
  detectedFormat: FormatId | null;
  defaultProvider: ProviderId | null;
}) {
  const formatOverride = useAppStore((s) => s.formatOverride);
  const provider = useAppStore((s) => s.provider);
  const setFormatOverride = useAppStore((s) => s.setFormatOverride);
  const setProvider = useAppStore((s) => s.setProvider);
  // The empty choices read short ("Auto (…)") so the header keeps one row at 1440 px; their
  // titles (hover) say what "auto" does.
  const detect = `Detect (${labelOfFormat(detectedFormat)})`;
  const follow = `Follow the input (${labelOfProvider(defaultProvider)})`;
  return (
    <>
      <label id="toolbar-format" className="narrow-more">
        <span className="lbl">Format</span>
        <select
          data-testid="format-select"
          value={formatOverride ?? ''}
          title={formatOverride ? labelOfFormat(formatOverride) : detect}
          onChange={(e) =>
            setFormatOverride(e.target.value === '' ? null : (e.target.value as FormatId))
          }
        >
          <option value="">{`Auto (${labelOfFormat(detectedFormat)})`}</option>
          {PARSERS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label id="toolbar-provider" className="narrow-more">
        <span className="lbl">Provider</span>
        <select
          data-testid="provider-select"
          value={provider ?? ''}
          title={provider ? labelOfProvider(provider) : follow}
          onChange={(e) =>
            setProvider(e.target.value === '' ? null : (e.target.value as ProviderId))
          }
        >
          <option value="">{`Auto (${labelOfProvider(defaultProvider)})`}</option>
          {ENDPOINT_GROUPS.map((g) => (
            <optgroup key={g.api} label={g.label}>
              {g.endpoints.map((e) => (
                <option key={e.id} value={e.id} title={`${e.label}: evidence as of ${e.asOf}`}>
                  {e.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
    </>
  );
}

/** Ids of what the toolbar's "More" button shows and hides on a narrow screen. */
const MORE_IDS = [
  'toolbar-follow',
  'toolbar-scan',
  'toolbar-format',
  'toolbar-provider',
  'toolbar-theme',
  'toolbar-help',
];

/**
 * The input toolbar: sample, file, text toggle, request, format, provider, theme and help. On a
 * narrow screen (styles.css, 600 px) format, provider, theme and help fold behind "More" (a
 * disclosure button; its title says what is chosen), so the header stays a few rows tall.
 */
export function Toolbar(p: ToolbarProps) {
  const current = useAppStore((s) => s.source);
  // Name what is shown: the store's source until a transcript is on screen, then that one's.
  const source = p.shown ?? current;
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  const formatOverride = useAppStore((s) => s.formatOverride);
  const provider = useAppStore((s) => s.provider);
  const [more, setMore] = useState(false);
  const chosen = [
    `Format: ${formatOverride ? labelOfFormat(formatOverride) : `detect (${labelOfFormat(p.detectedFormat)})`}`,
    `provider: ${labelOfProvider(provider ?? p.defaultProvider)}`,
    `theme: ${theme ?? 'system'}`,
  ].join(' · ');
  return (
    <div className={`toolbar${more ? ' more-open' : ''}`} role="toolbar" aria-label="Input">
      <SamplePicker samples={p.samples} source={source} onSample={p.onSample} />
      <OpenFile onFile={p.onFile} />
      {p.scanEntry}
      {source.origin === 'file' && (
        // Once a file is open: keep one open and show it again as it grows (a record, a log).
        <span id="toolbar-follow" className="narrow-more">
          <FollowFile onOpen={p.onFile} onChanged={p.onFileChanged} />
        </span>
      )}
      <button
        type="button"
        aria-pressed={p.showText}
        onClick={p.onToggleText}
        data-testid="toggle-text"
      >
        {p.showText ? 'Hide text' : 'Edit text'}
      </button>
      <button
        type="button"
        className="toolbar-more"
        data-testid="toolbar-more"
        aria-expanded={more}
        aria-controls={MORE_IDS.filter(
          (id) =>
            (id !== 'toolbar-follow' || source.origin === 'file') &&
            (id !== 'toolbar-scan' || !!p.scanEntry),
        ).join(' ')}
        title={chosen}
        onClick={() => setMore((m) => !m)}
      >
        More <span aria-hidden="true">{more ? '▴' : '▾'}</span>
      </button>
      <FormatAndProvider detectedFormat={p.detectedFormat} defaultProvider={p.defaultProvider} />
      <span className="spacer" />
      <button
        type="button"
        id="toolbar-theme"
        className="narrow-more"
        data-testid="theme-toggle"
        // The icon alone keeps the header's row; the name and title say which theme is on.
        aria-label={`Theme: ${theme ?? 'system'}`}
        title={`Theme: ${theme ?? 'system'} (the system's setting unless forced; click to change)`}
        onClick={() => setTheme(theme === null ? 'dark' : theme === 'dark' ? 'light' : null)}
      >
        <span aria-hidden="true">◐</span>
      </button>
      <button
        type="button"
        id="toolbar-help"
        className="narrow-more"
        onClick={p.onHelp}
        data-testid="help-button"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </div>
  );
}
