/** The parameters of one command: name, types, required flag, default and description (stacked: fits a sidebar). */
import type { ParameterDoc } from '../../../shared/commands/schema-catalog';
import styles from './reference.module.css';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ParameterItem({ param }: { param: ParameterDoc }) {
  return (
    <li className={styles.param} aria-label={param.name}>
      <div className={styles.paramHead}>
        <code className={styles.paramName}>{param.name}</code>
        <span className={styles.types}>{param.types.join(' | ')}</span>
        {param.required && <span className={styles.required}>required</span>}
        {param.default !== undefined && (
          <span className={styles.default}>
            default <code>{shown(param.default)}</code>
          </span>
        )}
      </div>
      <div className={styles.paramText}>
        {param.description}
        {param.enum && <span className={styles.muted}> One of: {param.enum.map(shown).join(', ')}.</span>}
      </div>
    </li>
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
        <ul className={styles.params} aria-label="Parameters">
          {own.map((p) => (
            <ParameterItem key={p.name} param={p} />
          ))}
        </ul>
      )}
      {common.length > 0 && (
        <p className={styles.muted}>Every command also takes: {common.map((p) => p.name).join(', ')}.</p>
      )}
    </>
  );
}
