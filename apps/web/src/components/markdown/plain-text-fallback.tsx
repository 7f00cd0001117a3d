import { Component, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

interface PlainTextFallbackProps {
  /** What the children show, as the plain text to show instead should they throw. */
  text: string;
  className?: string;
  children: ReactNode;
}

interface PlainTextFallbackState {
  failed: boolean;
  text: string;
}

/**
 * An error boundary around one message: if rendering it throws (a parser or renderer bug, an
 * attachment the UI does not expect), that message is shown as its plain text and the rest of the
 * page goes on, instead of React unmounting the whole tree into a blank page. React still reports
 * the error to the console. New text (an edit) gets a fresh try.
 */
export class PlainTextFallback extends Component<PlainTextFallbackProps, PlainTextFallbackState> {
  state: PlainTextFallbackState = { failed: false, text: this.props.text };

  static getDerivedStateFromError(): Partial<PlainTextFallbackState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: PlainTextFallbackProps,
    state: PlainTextFallbackState,
  ): Partial<PlainTextFallbackState> | null {
    return props.text === state.text ? null : { failed: false, text: props.text };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p data-plain-text="" className={cn('whitespace-pre-wrap break-words', this.props.className)}>
        {this.props.text}
      </p>
    );
  }
}
