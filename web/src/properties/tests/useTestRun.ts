/** Runs the tests of an app's `test/` folder with `test.run` (pattern: the folder and everything below). */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api';
import type { TestReport } from '../../../../shared/app-tests/test-report';

export function useTestRun(folder: string) {
  const api = useApi();
  return useMutation({
    mutationKey: ['test-run', folder],
    mutationFn: () => api.command<TestReport>('test.run', { pattern: `${folder}/**` }, { method: 'POST' }),
  });
}
