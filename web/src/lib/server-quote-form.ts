import type { QuoteFormState } from '@forgeline/contracts/ssr';
import { createContext, useContext } from 'react';

/**
 * The no-JavaScript quote form's state (security check, a refused submission's values and errors), which only the
 * server has: web/src/entry-server.tsx provides it; in the browser it is absent (the app uses the quote dialog).
 */
export const ServerQuoteFormContext = createContext<QuoteFormState | undefined>(undefined);

export const useServerQuoteForm = () => useContext(ServerQuoteFormContext);
