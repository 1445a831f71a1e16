/** Named server keys for `encrypt`/`decrypt` (`PIPEWORK_KEY_<NAME>`): secrets, never shown by `config.get`. */

const MIN_SECRET_CHARS = 16;

/** The keys by lower-case name: PIPEWORK_KEY_REPORTS=... is the key `reports`. A short secret stops the start. */
export function loadNamedKeys(env: NodeJS.ProcessEnv): Record<string, string> {
  const keys: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('PIPEWORK_KEY_') || name.length <= 13 || !value) continue;
    if (value.length < MIN_SECRET_CHARS)
      throw new Error(`${name} must be at least ${MIN_SECRET_CHARS} characters (a random secret)`);
    keys[name.slice(13).toLowerCase()] = value;
  }
  return keys;
}
