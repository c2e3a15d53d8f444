import type { PartsMatchResponse } from '@forgeline/contracts/parts-match';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/parts/match: a pasted list as `{ text }`, or a CSV/XLSX file as the multipart field `file`. */
export function matchParts(input: { text: string } | { file: File }): Promise<PartsMatchResponse> {
  if ('file' in input) {
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    return apiFetch<PartsMatchResponse>('/api/parts/match', { method: 'POST', body: form });
  }
  return apiFetch<PartsMatchResponse>('/api/parts/match', { method: 'POST', json: { text: input.text } });
}

export const useMatchParts = () => useMutation({ mutationFn: matchParts });
