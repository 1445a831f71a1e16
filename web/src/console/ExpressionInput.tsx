/**
 * The console's input: completes roots, vars, fields and utilities from the chosen step's message (the shared
 * PEL completion, with the recorded values as samples). Tab or Enter takes the highlighted proposal.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { complete, type CompletionItem } from '../../../shared/pel';
import type { StepMessage } from '../run/run-types';
import styles from './console.module.css';

const MAX_ITEMS = 8;

export interface ExpressionInputProps {
  value: string;
  onChange(value: string): void;
  message: StepMessage;
}

interface Proposals {
  from: number;
  to: number;
  items: CompletionItem[];
}

function proposalsAt(text: string, caret: number, message: StepMessage): Proposals {
  if (text.trim() === '') return { from: caret, to: caret, items: [] };
  try {
    const mode = text.includes('#{') ? 'template' : 'expression';
    const result = complete(text, caret, message, mode);
    const word = text.slice(result.from, result.to);
    const items = result.items.filter((item) => item.label !== word).slice(0, MAX_ITEMS);
    return { from: result.from, to: result.to, items };
  } catch {
    return { from: caret, to: caret, items: [] };
  }
}

export function ExpressionInput({ value, onChange, message }: ExpressionInputProps) {
  const input = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const proposals = useMemo(() => proposalsAt(value, caret, message), [value, caret, message]);
  const shown = open ? proposals.items : [];

  const accept = (item: CompletionItem) => {
    const next = value.slice(0, proposals.from) + item.insertText + value.slice(proposals.to);
    const at = proposals.from + item.insertText.length;
    onChange(next);
    setCaret(at);
    setActive(-1);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (shown.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + shown.length) % shown.length);
    } else if ((event.key === 'Tab' || event.key === 'Enter') && (active >= 0 || event.key === 'Tab')) {
      event.preventDefault();
      accept(shown[Math.max(0, active)]!);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className={styles.inputBox}>
      <input
        ref={input}
        role="combobox"
        aria-label="Expression"
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls="console-proposals"
        placeholder="#{vars.greeting} or body.items[0]"
        spellCheck={false}
        autoComplete="off"
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setActive(-1);
          setOpen(true);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
      />
      {shown.length > 0 && (
        <ul id="console-proposals" role="listbox" className={styles.proposals} aria-label="Completions">
          {shown.map((item, i) => (
            <li
              key={`${item.kind}-${item.label}`}
              role="option"
              aria-selected={i === active}
              className={styles.proposal}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(item);
              }}
            >
              <span className={styles.proposalLabel}>{item.label}</span>
              <span className={styles.proposalDetail}>{item.detail ?? item.kind}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
