/**
 * Hook text for the model or the user is capped at 10,000 characters (hooks.md §6.1). The excess is
 * saved to a file when the caller can (the model then gets a preview and the path), else cut.
 */
const MAX_HOOK_TEXT_CHARS = 10_000;
const PREVIEW_CHARS = 2_000;

export function textCap(spill?: (text: string) => string | undefined): (text: string) => string {
  return (text) => {
    if (text.length <= MAX_HOOK_TEXT_CHARS) return text;
    const path = spill?.(text);
    if (path !== undefined) {
      return `${text.slice(0, PREVIEW_CHARS)}\n… [hook output was ${text.length} characters; the full text is in ${path}]`;
    }
    return `${text.slice(0, MAX_HOOK_TEXT_CHARS)}\n… [hook output cut: ${text.length - MAX_HOOK_TEXT_CHARS} more characters]`;
  };
}
