/** The one in-memory model of a pipeline, whatever form (YAML, JSON, URI) it was written in. */

/** A 1-based place in the source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

export type PipelineSourceKind = 'yaml' | 'json' | 'uri';

/** How a string value was written, which decides how offsets in the value map back to the source. */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded' | 'uri';

/** A string value's source text as written (quotes, escapes, block header and indentation included). */
export interface ScalarSource {
  style: ScalarStyle;
  /** Where `raw` starts in the pipeline source. */
  start: SourcePosition;
  raw: string;
}

/** One item of the `pipeline` list. */
export interface PipelineStep {
  /** 0-based index in the pipeline list. */
  index: number;
  /** The command name as written (dotted, lower case). */
  command: string;
  /**
   * Named parameters as written (values not yet evaluated; templates stay strings).
   * Contains neither `defaultValue` (below) nor anything the parser could not read.
   */
  params: Record<string, unknown>;
  /**
   * The value of the short form `- name: scalar` (or `- name: [list]`): it belongs to the command's
   * default parameter, which only the command registry knows. Undefined when absent.
   */
  defaultValue?: unknown;
  /** Where the item's command name starts. */
  position?: SourcePosition;
  /** Where each parameter's value starts (key: parameter name; the default value under '' ). */
  paramPositions?: Record<string, SourcePosition>;
  /**
   * The source text of each parameter whose value is a string (key '' for the default value), so that an
   * offset inside the value (where a PEL error is) maps to a line and column: see `locateInParameter`.
   */
  paramSources?: Record<string, ScalarSource>;
}

export interface PipelineScript {
  source: PipelineSourceKind;
  headers: Record<string, unknown>;
  vars: Record<string, unknown>;
  steps: PipelineStep[];
  /** The initial body: `null` when the script sets none. */
  body: unknown;
  /** Positions of top-level values in the source, for errors in headers and vars expressions. */
  sectionPositions?: {
    headers?: Record<string, SourcePosition>;
    vars?: Record<string, SourcePosition>;
    body?: SourcePosition;
  };
  /** The source text of top-level string values in `headers` and `vars`: see `locateInSection`. */
  sectionSources?: {
    headers?: Record<string, ScalarSource>;
    vars?: Record<string, ScalarSource>;
  };
}
