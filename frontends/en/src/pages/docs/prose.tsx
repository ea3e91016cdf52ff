import { Fragment, type ReactNode } from 'react';

/** `a `b` c` → text and <code> pieces (the document's descriptions mark names with backticks). */
export function inline(textLine: string): ReactNode[] {
  return textLine
    .split('`')
    .map((piece, i) => (i % 2 === 1 ? <code key={i}>{piece}</code> : <Fragment key={i}>{piece}</Fragment>));
}

/** A description of the document: paragraphs at blank lines, line breaks inside one joined, backticks as code. */
export function Prose({ text, className }: { text: string; className?: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
  if (paragraphs.length === 0) return null;
  return (
    <div className={className ? `prose ${className}` : 'prose'}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>{inline(paragraph)}</p>
      ))}
    </div>
  );
}
