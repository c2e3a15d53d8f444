import type { SearchMatch } from '@forgeline/contracts/products';
import { splitByRanges } from '../../../lib/highlight.ts';

/** Text with the API's matched ranges wrapped in <mark>; React escapes every piece (no HTML injection). */
export function HighlightedText({
  text,
  field,
  matches,
}: {
  text: string;
  field: SearchMatch['field'];
  matches: SearchMatch[] | undefined;
}) {
  const ranges = matches?.filter((m) => m.field === field).flatMap((m) => m.ranges);
  return (
    <>
      {splitByRanges(text, ranges).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-safety/70 px-0.5 text-ink">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
