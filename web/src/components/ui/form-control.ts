/** The look of a text input, select or textarea in the site's forms; add `w-full` or a width where it sits. */
export const formControlClass =
  'mt-1 block rounded-md border border-zinc-300 bg-white px-3 py-2 text-base text-ink placeholder:text-zinc-400 focus:border-ink focus:outline-none focus:ring-2 focus:ring-safety disabled:bg-zinc-100 sm:text-sm';
