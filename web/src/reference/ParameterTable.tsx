/** The parameters of one command: name, types, required flag, default and description. */
import type { ParameterDoc } from './command-catalog';
import styles from './reference.module.css';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ParameterRow({ param }: { param: ParameterDoc }) {
  return (
    <tr>
      <td>
        <code>{param.name}</code>
        {param.required && <span className={styles.required}>required</span>}
      </td>
      <td className={styles.types}>{param.types.join(' | ')}</td>
      <td>{param.default !== undefined ? <code>{shown(param.default)}</code> : ''}</td>
      <td>
        {param.description}
        {param.enum && <span className={styles.muted}> One of: {param.enum.map(shown).join(', ')}.</span>}
      </td>
    </tr>
  );
}

export function ParameterTable({ parameters }: { parameters: ParameterDoc[] }) {
  const own = parameters.filter((p) => !p.common);
  const common = parameters.filter((p) => p.common);
  return (
    <>
      {own.length === 0 ? (
        <p className={styles.muted}>No parameters of its own.</p>
      ) : (
        <table className={styles.params}>
          <thead>
            <tr>
              <th>Parameter</th>
              <th>Type</th>
              <th>Default</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {own.map((p) => (
              <ParameterRow key={p.name} param={p} />
            ))}
          </tbody>
        </table>
      )}
      {common.length > 0 && (
        <p className={styles.muted}>Every command also takes: {common.map((p) => p.name).join(', ')}.</p>
      )}
    </>
  );
}
