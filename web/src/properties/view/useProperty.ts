/** One property, loaded when shown and refreshed by events; a deleted one reports PROPERTY_NOT_FOUND. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api';
import { getProperty } from '../api/property-api';
import { propertyQueryKey } from '../api/query-keys';

export function useProperty(key: string) {
  const api = useApi();
  return useQuery({
    queryKey: propertyQueryKey(key),
    queryFn: ({ signal }) => getProperty(api, key, signal),
    staleTime: 30_000,
  });
}
