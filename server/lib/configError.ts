/**
 * A bad or missing setting: start-up stops with its message, which names the setting and what to write instead
 * (server/main.ts prints it without a stack). Thrown wherever a setting is read, from the environment or a file.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}
