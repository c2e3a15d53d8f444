import { productPath } from '@forgeline/contracts/slug';
import { Link } from 'react-router-dom';

export interface NotSoldPart {
  id: string;
  replacedBy: { id: string; name: string; slug?: string | null; partNumber?: string | null } | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The parts a link asked for that the catalogue does not sell (an unknown id, or a part taken off the storefront):
 * said, not added; where another part replaced one, a link to it. Its links are plain ones too without JavaScript.
 */
export function NotSoldParts({ parts }: { parts: readonly NotSoldPart[] }) {
  if (!parts.length) return null;
  const replaced = parts.filter((p) => p.replacedBy);
  return (
    <div className="mt-2 text-sm">
      <p>
        {plural(parts.length, 'part', 'parts')} from the link {parts.length === 1 ? 'is' : 'are'} not in the catalogue (any more) and{' '}
        {parts.length === 1 ? 'was' : 'were'} not added.
      </p>
      {replaced.length ? (
        <ul className="mt-1 list-disc pl-5">
          {replaced.map((p) => (
            <li key={p.id}>
              One was replaced by{' '}
              <Link to={productPath(p.replacedBy!)} className="font-semibold text-ink underline">
                {p.replacedBy!.partNumber ? `${p.replacedBy!.partNumber} ` : ''}
                {p.replacedBy!.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
