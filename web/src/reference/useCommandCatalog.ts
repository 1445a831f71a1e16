/** The command catalogue from the public pipeline schema, fetched once and shared (the editor asks for it too). */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { commandCatalog, type CommandDoc } from '../../../shared/commands/schema-catalog';

export const PIPELINE_SCHEMA_PATH = '/api/v3/command:pipe.schema.v7';

async function fetchSchema(): Promise<unknown> {
  const response = await fetch(PIPELINE_SCHEMA_PATH);
  if (!response.ok) throw new Error(`The command schema could not be loaded (HTTP ${response.status}).`);
  return response.json();
}

export function useCommandCatalog(): { commands: CommandDoc[]; error: Error | null; loading: boolean } {
  const query = useQuery({ queryKey: ['pipeline-schema'], queryFn: fetchSchema, staleTime: 5 * 60_000 });
  const commands = useMemo(() => (query.data ? commandCatalog(query.data) : []), [query.data]);
  return { commands, error: query.error, loading: query.isPending };
}
