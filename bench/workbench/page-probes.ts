/**
 * Measurements taken inside the page (as source text, so that bundling never changes what runs there). They
 * use the `window.monaco` the editor exposes: keydown time to the next paint, and to the 'pel' marker update.
 */

/**
 * Arms a probe for the next keystroke; `window.__probe` resolves with milliseconds from keydown: to the next
 * paint, or (`marker`) until the markers of `owner` ('pel' or our validator's 'pipework') on `line` show an
 * error or none, as `expectError` says.
 */
export const ARM_PROBE = `(({ kind, line, expectError, owner = 'pel' }) => {
  const monaco = window.monaco;
  const model = monaco.editor.getEditors()[0].getModel();
  let start = 0;
  window.__probe = new Promise((resolve) => {
    window.addEventListener('keydown', () => { start = performance.now(); }, { capture: true, once: true });
    if (kind === 'paint') {
      const sub = model.onDidChangeContent(() => {
        sub.dispose();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now() - start);
          channel.port2.postMessage(0);
        });
      });
    } else {
      const sub = monaco.editor.onDidChangeMarkers(() => {
        const markers = monaco.editor.getModelMarkers({ owner, resource: model.uri });
        const has = markers.some((m) => m.startLineNumber === line && m.severity === monaco.MarkerSeverity.Error);
        if (start > 0 && has === expectError) {
          sub.dispose();
          resolve(performance.now() - start);
        }
      });
    }
  });
})`;

/**
 * Arms a probe for the next keystroke; `window.__probe` resolves with milliseconds from keydown until the flow
 * view's node of step `step` (1-based) shows `command`.
 */
export const ARM_FLOW_PROBE = `(({ step, command }) => {
  let start = 0;
  const shown = () => document.querySelector('[data-step="' + step + '"] .flow-step-command')?.textContent === command;
  window.__probe = new Promise((resolve) => {
    window.addEventListener('keydown', () => { start = performance.now(); }, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (start > 0 && shown()) {
        observer.disconnect();
        resolve(performance.now() - start);
      }
    });
    observer.observe(document.querySelector('[data-testid="flow-view"]'), { subtree: true, childList: true, characterData: true });
  });
})`;

/**
 * Starts watching the main thread: `window.__longest()` then gives the longest task (ms) since, counting
 * only tasks over 50 ms (Chromium's long tasks); 0 when there was none.
 */
export const WATCH_LONG_TASKS = `(() => {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ type: 'longtask' });
  window.__longest = () => {
    observer.takeRecords().forEach((entry) => { longest = Math.max(longest, entry.duration); });
    observer.disconnect();
    return longest;
  };
})()`;

/** Puts a text in the editor and the cursor at a line and column. */
export const LOAD_TEXT = `(({ text, line, column }) => {
  const editor = window.monaco.editor.getEditors()[0];
  editor.setValue(text);
  editor.setPosition({ lineNumber: line, column });
  editor.revealLineInCenter(line);
  editor.focus();
})`;

/** True once an editor with a model is mounted. */
export const EDITOR_MOUNTED = `(() => {
  const editor = window.monaco?.editor.getEditors()[0];
  return Boolean(editor?.getModel() && editor.getDomNode()?.querySelector('textarea'));
})()`;

export const EDITOR_TEXT = `window.monaco.editor.getEditors()[0].getValue()`;

/**
 * True once the flow view's graph has `count` steps (it says so in `data-steps`: only the steps in view are in
 * the DOM), one of them drawn.
 */
export function flowSteps(count: number): string {
  const view = `document.querySelector('[data-testid="flow-view"]')`;
  return `(${view}?.dataset.steps === '${count}' && ${view}.querySelector('[data-step]') !== null)`;
}

/**
 * A pipeline of about `lines` lines: `log` steps whose messages hold expressions. Returns the text and where
 * to type in the middle one (just before the `}` of its expression).
 */
export function pipelineOf(lines: number): { text: string; line: number; column: number } {
  const out = ['vars:', '  n: 1', 'pipeline:'];
  let step = 0;
  while (out.length < lines - 2) {
    out.push('  - log:', `      message: "step ${step}: #{body.items[${step % 10}].name + vars.n}"`);
    step++;
  }
  out.push('body:', '  items: []');
  const middle = Math.floor(out.length / 2);
  const line = out[middle]!.includes('message') ? middle + 1 : middle + 2;
  const column = out[line - 1]!.lastIndexOf('}') + 1;
  return { text: out.join('\n') + '\n', line, column };
}
