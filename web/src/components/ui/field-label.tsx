import type { ReactNode } from 'react';

/** A form field's label, with the red star of a required field (contact form, quote dialog). */
export function FieldLabel({ htmlFor, required, children }: { htmlFor: string; required?: boolean; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-semibold text-ink">
      {children}
      {required ? <span className="text-red-700"> *</span> : null}
    </label>
  );
}
