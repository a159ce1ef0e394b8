/**
 * An error boundary around one part of the page (the inspector, the timeline, one message row,
 * the simulator, the verdict column): a part whose render throws is replaced by a note that says
 * which part failed and why, and the rest of the page, the loaded transcript and the input stay.
 * "Try again" renders the part anew; a new `resetKey` (another analysis) does too.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface PartBoundaryProps {
  /** What the part is, for the note: "timeline", "message 12", … */
  part: string;
  /** When it changes, a failed part is drawn again (e.g. the analysis). */
  resetKey?: unknown;
  /** A one-line note (a message row) instead of a block. */
  inline?: boolean;
  children: ReactNode;
}

interface PartBoundaryState {
  error: Error | null;
  key: unknown;
}

export class PartBoundary extends Component<PartBoundaryProps, PartBoundaryState> {
  state: PartBoundaryState = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<PartBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(
    p: PartBoundaryProps,
    s: PartBoundaryState,
  ): Partial<PartBoundaryState> | null {
    return p.resetKey === s.key ? null : { error: null, key: p.resetKey };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console keeps the stack for a bug report; the page shows the message.
    console.error(`Transcript Inspector: the ${this.props.part} failed to draw`, error, info);
  }

  render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { part, inline } = this.props;
    const retry = (
      <button type="button" onClick={() => this.setState({ error: null })}>
        Try again
      </button>
    );
    return (
      <div
        className={`part-error${inline ? ' inline' : ''}`}
        role="alert"
        data-testid="part-error"
        data-part={part}
      >
        <strong>The {part} could not be drawn.</strong> <span>{error.message}</span>{' '}
        {!inline && <span>The transcript is still loaded and the rest of the page works; </span>}
        {retry}
      </div>
    );
  }
}
