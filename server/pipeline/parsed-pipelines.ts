/**
 * Parsed pipeline scripts by their text. Parsing YAML is most of what a small pipeline run costs, and clients
 * send the same texts again and again; the cache hands every run a script of its own body (the runner puts the
 * body into the run's scope, where steps may change it), and shares the rest, which runs only read.
 */
import { LruCache } from '../../shared/values/lru-cache';
import { copyPlainData } from '../../shared/values/plain-copy';
import {
  parsePipeline,
  scriptWith,
  type PipelineScript,
  type PipelineSourceKind,
} from '../../shared/pipeline';

/** How many parsed texts are kept, and how many characters of text they may add up to. */
export const PARSED_PIPELINE_CACHE = { entries: 1000, characters: 4_000_000 } as const;

const parsed = new LruCache<PipelineScript>(PARSED_PIPELINE_CACHE.entries, PARSED_PIPELINE_CACHE.characters);

/** A run's own copy of the cached script: the body is copied when it can be changed. */
export function forOneRun(script: PipelineScript): PipelineScript {
  const body = script.body;
  return body !== null && typeof body === 'object'
    ? scriptWith(script, { body: copyPlainData(body) })
    : script;
}

/**
 * Texts parsed once, not kept: a text is kept from its second run on, so a client that sends a new text each
 * time (the data inline) costs neither a copy of its body nor a cache entry that is never hit.
 */
const seenOnce = new LruCache<true>(PARSED_PIPELINE_CACHE.entries, PARSED_PIPELINE_CACHE.characters);

/** Parses `text` once (errors are not kept: they are thrown again for each call); see the file comment. */
export function parsePipelineCached(text: string, kind: PipelineSourceKind): PipelineScript {
  const key = `${kind}:${text}`;
  const cached = parsed.get(key);
  if (cached) return forOneRun(cached);
  const script = parsePipeline(text, kind);
  if (!seenOnce.get(key)) {
    seenOnce.set(key, true, text.length);
    return script; // the run's own: nobody else holds it
  }
  seenOnce.delete(key);
  parsed.set(key, script, text.length);
  return forOneRun(script);
}
