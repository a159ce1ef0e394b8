/**
 * The system prompt, pinned above the timeline: its first line as the summary, the whole text
 * inside. `label` says what it is (`selectPinnedLabel`: a system message inside an Anthropic or
 * Gemini list is not the system prompt).
 */
export function PinnedSystem({ text, label = 'System prompt' }: { text: string; label?: string }) {
  return (
    <details className="pinned" data-testid="pinned-system">
      <summary>
        {label} ·{' '}
        {text.length > 80
          ? `${text.slice(0, 79).replace(/\s+/g, ' ')}…`
          : text.replace(/\s+/g, ' ')}
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
