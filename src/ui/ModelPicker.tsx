/**
 * The Model picker, under the verdict's heading: shown where the rules depend on the model
 * (Anthropic's prefill A12, Claude on Bedrock, Gemini 3's thought signatures), so that a
 * verdict's "pick a model" can be followed where it is said. The choice is the store's `model` (a link's `m`, the CLI's `--model`); empty = the
 * transcript's own.
 */
import { useEffect, useState } from 'react';
import { ModelIdSchema } from '../model/permalink/schema.ts';
import type { ProviderId } from '../model/types.ts';
import { useAppStore } from '../state/store.ts';

/** Model ids offered per provider whose rules depend on the model; any other id may be typed. */
const MODEL_CHOICES: Partial<Record<ProviderId, readonly string[]>> = {
  anthropic: [
    'claude-opus-4-7',
    'claude-opus-4-6',
    'claude-sonnet-4-6',
    'claude-sonnet-4-5',
    'claude-haiku-4-5',
    'claude-opus-4-1',
    'claude-3-7-sonnet-latest',
  ],
  bedrock: [
    'anthropic.claude-opus-4-6-v1',
    'anthropic.claude-sonnet-4-5-20250929-v1:0',
    'anthropic.claude-3-7-sonnet-20250219-v1:0',
    'amazon.nova-pro-v1:0',
    'meta.llama3-1-70b-instruct-v1:0',
  ],
  gemini: ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash'],
};

/** True when the provider's rules depend on the model (a Model picker is offered). */
export function rulesDependOnModel(provider: ProviderId | null): boolean {
  return provider !== null && MODEL_CHOICES[provider] !== undefined;
}

/**
 * @param provider the provider whose rules apply (chosen or the format's)
 * @param transcriptModel the model the transcript names, for the empty choice's hint
 */
export function ModelPicker({
  provider,
  transcriptModel,
}: {
  provider: ProviderId | null;
  transcriptModel: string | undefined;
}) {
  const model = useAppStore((s) => s.model);
  const setModel = useAppStore((s) => s.setModel);
  const [draft, setDraft] = useState(model ?? '');
  useEffect(() => setDraft(model ?? ''), [model]);
  if (!rulesDependOnModel(provider) && model === null) return null;
  const choices = (provider && MODEL_CHOICES[provider]) ?? [];
  const valid = draft === '' || ModelIdSchema.safeParse(draft).success;
  const commit = (v: string) => {
    if (v === '' || ModelIdSchema.safeParse(v).success) setModel(v === '' ? null : v);
  };
  const own = transcriptModel ?? 'none named';
  return (
    <label className="model-picker">
      <span className="lbl">Judged as model</span>
      <input
        type="text"
        list="model-choices"
        data-testid="model-select"
        value={draft}
        size={18}
        placeholder={model === null ? `as sent (${own})` : 'as sent'}
        aria-invalid={!valid}
        title="Rules that depend on the model (prefill, Claude on Bedrock, Gemini 3 signatures) judge as this model; empty: the model the transcript names. Pick one or type an id, then Enter."
        onChange={(e) => {
          const v = e.target.value;
          setDraft(v);
          // A pick from the list (or clearing the box) applies at once; typing applies on Enter.
          if (v === '' || choices.includes(v)) commit(v);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(draft);
          if (e.key === 'Escape') setDraft(model ?? '');
        }}
        onBlur={() => commit(draft)}
      />
      <datalist id="model-choices">
        {choices.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
    </label>
  );
}
