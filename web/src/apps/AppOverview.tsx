/**
 * One app in one place: its forms and lists (open form, open list), pipelines, scripts, tests (run them) and
 * settings, read with the user's rights.
 */
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api';
import { APP_SECTIONS, objectOfSchemaKey } from './app-sections';
import styles from './apps.module.css';

export interface AppOverviewProps {
  app: string;
  onOpenForm: (object: string) => void;
  onOpenList: (object: string) => void;
  onOpenPipeline: (key: string) => void;
}

interface TestReport {
  total: number;
  passed: number;
  failed: number;
}

export function AppOverview({ app, onOpenForm, onOpenList, onOpenPipeline }: AppOverviewProps) {
  const api = useApi();
  const sections = useQueries({
    queries: APP_SECTIONS.map((s) => ({
      queryKey: ['app-section', app, s.section],
      queryFn: () => api.command<string[]>('property.keys', { pattern: `${app}/${s.pattern}` }),
    })),
  });
  const [tests, setTests] = useState<string>('');
  const runTests = async () => {
    setTests('Running the tests…');
    try {
      const report = await api.command<TestReport>(
        'test.run',
        { pattern: `${app}/test/**` },
        { method: 'POST' },
      );
      setTests(`${report.passed} of ${report.total} tests passed, ${report.failed} failed.`);
    } catch (error) {
      setTests(`The tests could not run: ${(error as Error).message}`);
    }
  };
  const name = app.split('/').pop();
  return (
    <section className={styles.overview} aria-label={`App ${name}`}>
      <h2>{name}</h2>
      {APP_SECTIONS.map((s, i) => {
        const keys = sections[i]?.data ?? [];
        if (sections[i]?.isError)
          return (
            <p role="alert" key={s.section}>
              {s.label}: {(sections[i]?.error as Error).message}
            </p>
          );
        return (
          <section key={s.section} aria-label={s.label}>
            <h3>
              {s.label} <span className={styles.count}>({keys.length})</span>
            </h3>
            {s.section === 'test' && keys.length > 0 && (
              <p>
                <button type="button" onClick={() => void runTests()}>
                  Run tests
                </button>{' '}
                <span role="status" aria-live="polite">
                  {tests}
                </span>
              </p>
            )}
            <ul className={styles.items}>
              {keys.map((key) => {
                const rest = key.slice(app.length + 1);
                if (s.section === 'object') {
                  const object = objectOfSchemaKey(key);
                  const label = rest.replace(/^object\//, '').replace(/\/schema$/, '');
                  return (
                    <li key={key}>
                      <span>{label}</span>
                      <button type="button" onClick={() => onOpenForm(object)}>
                        Open form<span className={styles.hiddenText}> {label}</span>
                      </button>
                      <button type="button" onClick={() => onOpenList(object)}>
                        Open list<span className={styles.hiddenText}> {label}</span>
                      </button>
                    </li>
                  );
                }
                return (
                  <li key={key}>
                    <button type="button" className={styles.link} onClick={() => onOpenPipeline(key)}>
                      {rest}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
