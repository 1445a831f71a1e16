/** The test report as JUnit XML, the format CI systems read (one testsuite, one testcase per test). */
import type { TestReport } from '../../shared/app-tests/test-report';

// eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 forbids
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function escape(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 allows no control characters but tab, newline and carriage return.
      .replace(CONTROL_CHARACTERS, '')
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(report: TestReport, suiteName = 'pipework'): string {
  const failures = report.tests.filter((t) => t.result === 'failed').length;
  const errors = report.tests.filter((t) => t.result === 'error').length;
  const cases = report.tests.map((t) => {
    const open = `  <testcase name="${escape(t.name)}" classname="${escape(t.key.slice(0, t.key.length - t.name.length - 1))}" file="${escape(t.key)}"${t.line ? ` line="${t.line}"` : ''} time="${seconds(t.durationMs)}"`;
    if (t.result === 'passed') return `${open}/>`;
    const where = t.line ? `${t.key}:${t.line}:${t.column ?? 1}` : t.key;
    const tag = t.result === 'failed' ? 'failure' : 'error';
    const message = t.message ?? t.result;
    return `${open}>\n    <${tag} message="${escape(message)}">${escape(`${message}\n  at ${where}`)}</${tag}>\n  </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${report.total}" failures="${failures}" errors="${errors}" time="${seconds(report.durationMs)}">`,
    `<testsuite name="${escape(suiteName)}" tests="${report.total}" failures="${failures}" errors="${errors}" time="${seconds(report.durationMs)}">`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
