import type { FitmentMakesResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/fitment/makes: the machine makes parts fit, by name. */
export async function getFitmentMakes(): Promise<FitmentMakesResponse> {
  try {
    return await apiFetch<FitmentMakesResponse>('/api/fitment/makes');
  } catch {
    throw new Error('Failed to fetch machine makes');
  }
}

export const fitmentMakesQuery = () => queryOptions({ queryKey: ['fitment', 'makes'], queryFn: getFitmentMakes });

export const useFitmentMakes = () => useQuery(fitmentMakesQuery());
