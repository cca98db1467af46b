/**
 * What the binary gives simple-git (and its @kwsites helpers) for the `debug` package: loggers
 * that never print. The real package costs ~4 ms to load (tty, util, colour detection) on the
 * path of a prompt's first checkpoint, and `DEBUG=simple-git` output would only interleave with
 * clew's own lines on the terminal. Bundled in place of `debug` by scripts/build-options.ts.
 */
export interface SilentLogger {
  (...args: unknown[]): void;
  readonly namespace: string;
  readonly enabled: boolean;
  extend(name: string): SilentLogger;
}

function silentLogger(namespace: string): SilentLogger {
  const log = (..._args: unknown[]): void => undefined;
  return Object.assign(log, { namespace, enabled: false, extend: (name: string) => silentLogger(`${namespace}:${name}`) });
}

/** `debug(namespace)`, with the package's `formatters` table (simple-git adds two) and `enabled()`. */
const createDebug = Object.assign(silentLogger, { formatters: {} as Record<string, (value: unknown) => string>, enabled: (_namespace: string) => false });

export default createDebug;
