/** The signed-in workbench (a lazy chunk): header, sidebar, the pipeline document and its runs. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import type { SessionState } from '../api/session';
import { Header } from './Header';
import { WorkbenchMain } from './WorkbenchMain';

export default function Workbench({ session }: { session: SessionState }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <div className="wb">
        <Header session={session} />
        <WorkbenchMain />
      </div>
    </QueryClientProvider>
  );
}
