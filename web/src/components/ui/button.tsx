import type { ComponentPropsWithoutRef } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { cn } from '../../lib/cn.ts';

export type ButtonVariant = 'primary' | 'dark' | 'outline' | 'outline-light' | 'ghost' | 'whatsapp';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-safety select-none';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-safety text-ink hover:bg-safety-hover',
  dark: 'bg-ink text-white hover:bg-ink-soft',
  outline: 'border-2 border-ink text-ink hover:bg-ink hover:text-white',
  'outline-light': 'border-2 border-white/80 text-white hover:bg-white hover:text-ink',
  ghost: 'text-ink hover:bg-black/5',
  whatsapp: 'bg-whatsapp text-white hover:bg-whatsapp-hover',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-5 text-sm',
  lg: 'h-12 px-6 text-base',
};

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra?: string): string {
  return cn(base, variants[variant], sizes[size], extra);
}

type Common = { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant, size, className, type = 'button', ...rest }: ComponentPropsWithoutRef<'button'> & Common) {
  return <button type={type} className={buttonClass(variant, size, className)} {...rest} />;
}

export function ButtonLink({ variant, size, className, ...rest }: LinkProps & Common) {
  return <Link className={buttonClass(variant, size, className)} {...rest} />;
}

/** A link leaving the site (WhatsApp): opens in a new tab, never passes the opener. */
export function ExternalButtonLink({ variant, size, className, children, ...rest }: ComponentPropsWithoutRef<'a'> & Common) {
  return (
    <a target="_blank" rel="noopener noreferrer" className={buttonClass(variant, size, className)} {...rest}>
      {children}
    </a>
  );
}
