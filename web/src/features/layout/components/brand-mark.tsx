import { Link } from 'react-router-dom';
import { site } from '../../../config/site.ts';

/** The logo: a hex-bolt mark and the name, drawn inline so it costs no request. */
export function BrandMark({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const [first, ...rest] = site.name.split(' ');
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2 rounded min-[360px]:gap-2.5" aria-label={`${site.name} home`}>
      <svg viewBox="0 0 40 40" className="size-8 min-[360px]:size-9" aria-hidden="true">
        <path d="M20 2 36 11v18L20 38 4 29V11z" fill="#f5b301" />
        <path d="M20 9 30 14.5v11L20 31 10 25.5v-11z" fill="#17191c" />
        <circle cx="20" cy="20" r="4.5" fill="#f5b301" />
      </svg>
      <span className={`font-display text-lg font-extrabold min-[360px]:text-xl uppercase leading-none tracking-tight ${tone === 'light' ? 'text-white' : 'text-ink'}`}>
        {first}
        {rest.length ? <span className="text-safety"> {rest.join(' ')}</span> : null}
      </span>
    </Link>
  );
}
