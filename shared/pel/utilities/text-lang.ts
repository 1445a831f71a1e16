/** `@text.lang`: the language of a text (franc-min's trigram detector), as its English name in capitals. */
import { franc } from 'franc-min';
import { iso6393 } from 'iso-639-3';

let names: Map<string, string> | null = null;

/** ISO 639-3 code to English name, built on first use (the code list is large; most runs never need it). */
function nameOf(code: string): string | null {
  names ??= new Map(iso6393.map((l) => [l.iso6393, l.name]));
  return names.get(code) ?? null;
}

/** 'GERMAN' for a German text; null when the text is too short or unclear to tell. */
export function detectLanguage(text: string): string | null {
  // The detector reads a sample: a longer text tells no more and costs more.
  const code = franc(text.slice(0, 2000));
  if (code === 'und') return null;
  return nameOf(code)?.toUpperCase() ?? null;
}
