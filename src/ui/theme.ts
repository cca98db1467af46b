/**
 * Colours for the line UI. Enabled only when the output is a terminal and NO_COLOR is unset; a
 * disabled theme returns text unchanged, so tests and logs see plain text.
 */
import { createColors } from "picocolors";

type Style = (text: string) => string;

export interface Theme {
  readonly enabled: boolean;
  bold: Style;
  dim: Style;
  italic: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  magenta: Style;
  cyan: Style;
  gray: Style;
}

export function createTheme(enabled: boolean): Theme {
  const colors = createColors(enabled);
  const wrap = (format: (input: string) => string): Style => (text) => (text === "" ? "" : format(text));
  return {
    enabled,
    bold: wrap(colors.bold),
    dim: wrap(colors.dim),
    italic: wrap(colors.italic),
    red: wrap(colors.red),
    green: wrap(colors.green),
    yellow: wrap(colors.yellow),
    blue: wrap(colors.blue),
    magenta: wrap(colors.magenta),
    cyan: wrap(colors.cyan),
    gray: wrap(colors.gray),
  };
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colorEnabled(isTTY: boolean, noColor: boolean): boolean {
  return isTTY && !noColor;
}
