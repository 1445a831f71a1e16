/** Named server keys for `encrypt`/`decrypt` (`PIPEWORK_KEY_<NAME>`): secrets, never shown by `config.get`. */

/** The keys by lower-case name: PIPEWORK_KEY_REPORTS=... is the key `reports`. */
export function loadNamedKeys(env: NodeJS.ProcessEnv): Record<string, string> {
  const keys: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('PIPEWORK_KEY_') && name.length > 13 && value)
      keys[name.slice(13).toLowerCase()] = value;
  }
  return keys;
}
