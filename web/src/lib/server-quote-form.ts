import type { QuoteFormState, QuoteListFormData } from '@forgeline/contracts/ssr';
import { createContext, useContext } from 'react';

/**
 * The no-JavaScript quote form's state (security check, a refused submission's values and errors), which only the
 * server has: web/src/entry-server.tsx provides it; in the browser it is absent (the app uses the quote dialog).
 */
export const ServerQuoteFormContext = createContext<QuoteFormState | undefined>(undefined);

export const useServerQuoteForm = () => useContext(ServerQuoteFormContext);

/**
 * The quote list's no-JavaScript form for a link that adds parts (/quote?add=…): its lines and form state, again only
 * on the server; in the browser the app adds the parts to the buyer's list instead.
 */
export const ServerQuoteListContext = createContext<QuoteListFormData | undefined>(undefined);

export const useServerQuoteList = () => useContext(ServerQuoteListContext);
