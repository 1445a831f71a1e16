/** The command catalogue from the public pipeline schema, fetched once per page and shared with the editor. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { commandCatalog, type CommandDoc } from '../../../shared/commands/schema-catalog';
import { loadPipelineSchema } from '../editor';

export function useCommandCatalog(): { commands: CommandDoc[]; error: Error | null; loading: boolean } {
  const query = useQuery({
    queryKey: ['pipeline-schema'],
    queryFn: () => loadPipelineSchema(),
    staleTime: Infinity,
  });
  const commands = useMemo(() => (query.data ? commandCatalog(query.data) : []), [query.data]);
  return { commands, error: query.error, loading: query.isPending };
}
