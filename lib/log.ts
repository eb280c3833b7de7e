import { loadConfig } from "./config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

/**
 * One JSON line per entry (Lambda's JSON log format reads it as structured). Never pass a
 * secret, token, password or request body here: entries are for operators, not for data.
 */
function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  let threshold: Level = "info";
  try {
    threshold = loadConfig().LOG_LEVEL;
  } catch {
    // Config problems are reported by the caller; logging must still work.
  }
  if (LEVELS[level] < LEVELS[threshold]) return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  (level === "error" || level === "warn" ? console.error : console.log)(line);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { errorName: error.name, errorMessage: error.message, stack: error.stack };
  return { error: String(error) };
}
