import type { FitmentModelsResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';

/** GET /api/fitment/models?make=: a make's models, by name. */
export async function getFitmentModels(make: string): Promise<FitmentModelsResponse> {
  try {
    return await apiFetch<FitmentModelsResponse>(withQuery('/api/fitment/models', { make }));
  } catch {
    throw new Error('Failed to fetch machine models');
  }
}

export const fitmentModelsQuery = (make: string) =>
  queryOptions({ queryKey: ['fitment', 'models', make], queryFn: () => getFitmentModels(make), enabled: Boolean(make) });

export const useFitmentModels = (make: string) => useQuery(fitmentModelsQuery(make));
