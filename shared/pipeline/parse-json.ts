/** The JSON front end: `*.pi.json` text to the pipeline model, with line and column for every fault. */
import { buildScript, type DocumentPath, type SourceLocator } from './build-script';
import { type JsonEntry, pathKey, scanJson } from './json-scanner';
import { checkSourceLength } from './limits';
import type { PipelineScript, ScalarSource, SourcePosition } from './model';
import { unexpected } from './syntax-error';

class JsonLocator implements SourceLocator {
  constructor(
    private readonly text: string,
    private readonly entries: Map<string, JsonEntry>,
  ) {}

  keyAt(path: DocumentPath): SourcePosition | undefined {
    return this.entries.get(pathKey(path))?.key;
  }

  valueAt(path: DocumentPath): SourcePosition | undefined {
    return this.entries.get(pathKey(path))?.value;
  }

  scalarAt(path: DocumentPath): ScalarSource | undefined {
    const entry = this.entries.get(pathKey(path));
    if (!entry?.string) return undefined;
    const [start, end] = entry.string;
    return { style: 'double', start: entry.value, raw: this.text.slice(start, end) };
  }
}

/**
 * Parses a `*.pi.json` script into the pipeline model. Values are exactly JSON.parse's; unlike JSON.parse,
 * duplicate keys are refused (as in YAML), and a leading byte order mark is ignored.
 */
export function parsePipelineJson(text: string): PipelineScript {
  checkSourceLength(text);
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    if (source.trim() === '') return buildScript(null, new JsonLocator(source, new Map()), 'json');
    const entries = scanJson(source);
    return buildScript(JSON.parse(source), new JsonLocator(source, entries), 'json');
  } catch (error) {
    throw unexpected(error);
  }
}
