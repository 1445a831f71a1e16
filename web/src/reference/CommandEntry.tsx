/** One command in the reference: its name and summary, unfolding to parameters and "Insert into editor". */
import { useWorkbench } from '../app/workbench-context';
import type { CommandDoc } from '../../../shared/commands/schema-catalog';
import { commandSnippet, commandStep } from './command-snippet';
import { ParameterTable } from './ParameterTable';
import styles from './reference.module.css';

interface CommandEntryProps {
  command: CommandDoc;
  open: boolean;
  onToggle(): void;
}

export function CommandEntry({ command, open, onToggle }: CommandEntryProps) {
  const workbench = useWorkbench();
  return (
    <li className={styles.entry} data-testid={`command-${command.name}`}>
      <button type="button" className={styles.header} aria-expanded={open} onClick={onToggle}>
        <span className={styles.name}>{command.name}</span>
        <span className={styles.summary}>{command.description}</span>
      </button>
      {open && (
        <div className={styles.details}>
          {command.aliases.length > 0 && (
            <p className={styles.muted}>Also called: {command.aliases.join(', ')}</p>
          )}
          <p className={styles.kinds}>
            input <code>{command.inputType ?? 'any'}</code> → output{' '}
            <code>{command.outputType ?? 'any'}</code>
          </p>
          {command.requiredOneOf?.map((group) => (
            <p key={group.join()} className={styles.muted}>
              Requires one of:{' '}
              {group.map((name, i) => (
                <span key={name}>
                  {i > 0 && ' or '}
                  <code>{name}</code>
                </span>
              ))}
            </p>
          ))}
          <ParameterTable parameters={command.parameters} />
          <div className={styles.actions}>
            <pre className={styles.snippet}>{commandSnippet(command)}</pre>
            <button
              type="button"
              className={styles.insert}
              onClick={() => workbench.insertIntoEditor(commandStep(command))}
            >
              Insert into editor
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
