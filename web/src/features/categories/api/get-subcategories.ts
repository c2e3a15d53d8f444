import type { Subcategory } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/subcategories: one item per brand and category pair. */
export const getSubcategories = () => apiFetch<Subcategory[]>('/api/subcategories');

export const subcategoriesQuery = () => queryOptions({ queryKey: ['subcategories'], queryFn: getSubcategories });

export const useSubcategories = () => useQuery(subcategoriesQuery());
