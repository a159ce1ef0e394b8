/**
 * The system prompt, pinned above the timeline: its first line as the summary, the whole text
 * inside.
 */
export function PinnedSystem({ text }: { text: string }) {
  return (
    <details className="pinned" data-testid="pinned-system">
      <summary>
        System prompt ·{' '}
        {text.length > 80
          ? `${text.slice(0, 79).replace(/\s+/g, ' ')}…`
          : text.replace(/\s+/g, ' ')}
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
