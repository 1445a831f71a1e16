/** The keys matching the search pattern (property.keys): what the user may read, in key order. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api';
import { matchingKeys } from '../api/property-api';
import { searchQueryKey } from '../api/query-keys';

export function useKeySearch(pattern: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: searchQueryKey(pattern ?? ''),
    queryFn: ({ signal }) => matchingKeys(api, pattern!, signal),
    enabled: pattern !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
