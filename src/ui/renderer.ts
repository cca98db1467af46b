/**
 * Turns the loop's event stream into committed lines: the model's text (streamed line by line,
 * light Markdown), one line per tool call and one per result, denials and errors in red,
 * thinking collapsed to "Thought for 4s" (in full with --verbose), and a footer per turn. Every mode that shows a session on a terminal uses
 * this one renderer; the live status line is fed from here as events arrive.
 */
import type { AgentEvent, LoopOutcome } from "../loop/events.ts";
import type { TokenUsage } from "../model/types.ts";
import { colorDiff } from "./diff.ts";
import { cutToWidth, wrapItems } from "./fit.ts";
import { compactTokens, firstSentence, formatCost, formatDuration, shortenPaths, toolSubject } from "./format.ts";
import type { LiveLine } from "./live.ts";
import { HelperStatus } from "./helper-status.ts";
import { MarkdownLines } from "./markdown.ts";
import { clip, stripAnsi } from "./terminal.ts";
import type { Theme } from "./theme.ts";

export interface RendererOptions {
  cwd: string;
  /** Show thinking in full instead of one "Thought for 4s" line. */
  verbose: boolean;
  now: () => number;
  /** Dollars for a turn's usage (the price table lives with the model, outside ui/). */
  costOf: (usage: TokenUsage) => number;
}

type Block = "text" | "tool" | "notice" | "footer" | "thinking";

interface OpenTool {
  name: string;
  subject: string;
  /** The tool line as it reads on screen (cut to the width), without colour. */
  shown: string;
}

const BASH_PREVIEW_LINES = 3;

export class Renderer {
  private readonly markdown: MarkdownLines;
  private text = "";
  private thinking = "";
  /** The thinking block being streamed: when it started, its index, whether it is redacted. */
  private thinkingBlock: { since: number; index: number | undefined; redacted: boolean } | undefined;
  private pendingBlank = 0;
  private lastBlock: Block | undefined;
  private lastLineTool: string | undefined;
  private turnStartedAt: number | undefined;
  private streamedChars = 0;
  private readonly tools = new Map<string, OpenTool>();
  private readonly denied = new Set<string>();
  private readonly diffShown = new Set<string>();
  private readonly helpers: HelperStatus;

  constructor(
    private readonly out: LiveLine,
    private readonly theme: Theme,
    private readonly options: RendererOptions,
  ) {
    this.helpers = new HelperStatus(options.now);
    this.markdown = new MarkdownLines(theme, () => out.width());
  }

  /**
   * Before an approval prompt: makes this call's tool line, when nothing was printed after it,
   * show `text` (the command) in full, so the prompt below need not repeat it. On a terminal a
   * line that was cut to one row is drawn again in place, wrapped. Returns whether it shows it.
   */
  showInFull(toolUseId: string, text: string): boolean {
    const tool = this.tools.get(toolUseId);
    if (this.lastLineTool !== toolUseId || tool === undefined || text === "") return false;
    if (tool.shown.includes(text)) return true;
    if (this.out.width() === undefined) return false;
    const line = `${this.theme.green("●")} ${this.theme.bold(tool.name)} ${text.split("\n").join("\n  ")}`;
    this.out.replaceLastRow(line);
    tool.shown = text;
    return true;
  }

  /**
   * An approval prompt was shown for this call: its result line names the call again, and a
   * diff the prompt already showed is not repeated.
   */
  afterPrompt(toolUseId: string, diffShown: boolean): void {
    if (diffShown) this.diffShown.add(toolUseId);
    this.lastLineTool = undefined;
  }

  /** A line of the UI's own (command output, notes), kept in the same block layout. */
  note(line: string, kind: "info" | "error" | "plain" = "plain"): void {
    this.flush();
    const styled = kind === "error" ? this.theme.red(line) : kind === "info" ? this.theme.dim(line) : line;
    this.out.print(styled);
  }

  handle = (event: AgentEvent): void => {
    switch (event.type) {
      case "turn_start":
        if (this.turnStartedAt === undefined) {
          this.turnStartedAt = this.options.now();
          this.lastBlock = undefined;
          this.streamedChars = 0;
        }
        return;
      case "request_start":
        this.out.update({ label: "Thinking" });
        return;
      case "text_delta":
        this.endThinking();
        this.text += event.text;
        this.streamedChars += event.text.length;
        this.out.update({ label: "Writing", tokensOut: Math.ceil(this.streamedChars / 4) });
        this.flushLines(false);
        return;
      case "raw_stream":
        this.thinkingBounds(event.event);
        return;
      case "thinking_delta":
        this.thinkingBlock ??= { since: this.options.now(), index: undefined, redacted: false };
        this.thinking += event.text;
        this.streamedChars += event.text.length;
        this.out.update({ label: "Thinking", tokensOut: Math.ceil(this.streamedChars / 4) });
        return;
      case "assistant_message": {
        this.flush();
        this.markdown.reset();
        const usage = event.message.usage;
        this.out.update({ tokensIn: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens });
        return;
      }
      case "tool_start":
        this.flush();
        this.toolStart(event.id, event.name, event.input);
        return;
      case "tool_end":
        this.toolEnd(event);
        return;
      case "permission_denied":
        this.flush();
        this.denied.add(event.id);
        this.completion(event.id, this.theme.red(firstSentence(event.reason)));
        return;
      case "api_retry": {
        this.flush();
        const status = event.status ?? event.category;
        const line = event.fallbackModel ? `  ${event.message}` : `  API error (${status}) · retrying in ${(event.delayMs / 1000).toFixed(1)}s · attempt ${event.attempt}/${event.maxRetries}`;
        this.commit("notice", [this.theme.dim(line)]);
        this.out.update({ label: "Retrying" });
        return;
      }
      case "notice":
        this.flush();
        this.commit("notice", [event.level === "warning" ? this.theme.yellow(`⚠ ${event.message}`) : this.theme.dim(event.message)]);
        return;
      case "compact_boundary":
        this.flush();
        this.commit("notice", [this.theme.dim(`✻ Conversation compacted (${event.trigger}; ${compactTokens(event.preTokens)} tokens before)`)]);
        return;
      case "status":
        if (event.status === "compacting") this.out.update({ label: "Compacting conversation" });
        return;
      case "turn_end":
        this.flush();
        this.turnEnd(event.outcome);
        return;
      case "subagent":
        if (this.helpers.observe(event)) this.out.update({ labelNow: () => this.helpers.label() });
        return;
      default:
        return;
    }
  };

  /** Commits whatever streamed text and thinking is still buffered. */
  flush(): void {
    this.endThinking();
    this.flushLines(true);
  }

  private toolStart(id: string, name: string, input: unknown): void {
    const subject = toolSubject(name, input, this.options.cwd);
    const line = this.oneRow(`${this.theme.green("●")} ${this.theme.bold(name)}${subject ? ` ${subject}` : ""}`);
    this.tools.set(id, { name, subject, shown: stripAnsi(line) });
    this.commit("tool", [line]);
    this.lastLineTool = id;
    this.out.update({ label: `Running ${name}` });
  }

  private toolEnd(event: Extract<AgentEvent, { type: "tool_end" }>): void {
    if (this.denied.delete(event.id)) {
      this.tools.delete(event.id);
      return;
    }
    const summary = event.display?.summary ?? (event.isError ? firstSentence(contentText(event.content)) : "Done");
    const short = shortenPaths(summary, this.options.cwd);
    const lines: string[] = [];
    if (event.isError) lines.push(this.theme.red(event.display ? short : `Error: ${short}`));
    else lines.push(short);
    const extra: string[] = [];
    const diff = event.display?.diff;
    if (diff && !this.diffShown.delete(event.id)) extra.push(...colorDiff(diff, this.theme));
    for (const line of event.display?.lines ?? []) extra.push(this.oneRow(line, 4));
    if (event.name === "Bash" && !event.display?.summary.startsWith("started")) {
      extra.push(...bashPreview(contentText(event.content), this.theme).map((line) => this.oneRow(line, 4)));
    }
    this.completion(event.id, lines[0] ?? "", extra);
    this.tools.delete(event.id);
  }

  /** "  ⎿ result": names the call again when other output came between its start and its end. */
  private completion(id: string, text: string, extra: string[] = []): void {
    const tool = this.tools.get(id);
    const who = this.lastLineTool === id || !tool ? "" : `${tool.name}${tool.subject ? ` ${clip(tool.subject, 60)}` : ""} · `;
    this.commit("tool", [`  ${this.theme.dim("⎿")} ${who}${text}`, ...extra.map((line) => `    ${line}`)]);
    this.lastLineTool = undefined;
  }

  private turnEnd(outcome: LoopOutcome): void {
    const problem = outcomeProblem(outcome);
    if (problem) this.commit("notice", [problem.error ? this.theme.red(problem.text) : this.theme.yellow(problem.text)]);
    const usage = outcome.usage;
    const parts = [`${compactTokens(usage.inputTokens)} in`, `${compactTokens(usage.outputTokens)} out`];
    if (usage.cacheReadInputTokens > 0) parts.push(`${compactTokens(usage.cacheReadInputTokens)} cache read`);
    if (usage.cacheCreationInputTokens > 0) parts.push(`${compactTokens(usage.cacheCreationInputTokens)} cache write`);
    parts.push(formatCost(this.options.costOf(usage)));
    if (this.turnStartedAt !== undefined) parts.push(formatDuration(this.options.now() - this.turnStartedAt));
    const [first = "", ...rest] = parts;
    const items = [`✻ ${first}`, ...rest];
    const width = this.out.width();
    const footer = width === undefined ? [items.join(" · ")] : wrapItems(items, width);
    this.commit("footer", footer.map((line) => this.theme.dim(line)));
    this.turnStartedAt = undefined;
    this.tools.clear();
    this.denied.clear();
  }

  /** A thinking block's start and end arrive as raw stream events; its text as thinking deltas. */
  private thinkingBounds(event: Extract<AgentEvent, { type: "raw_stream" }>["event"]): void {
    if (event.type === "content_block_start" && (event.content_block.type === "thinking" || event.content_block.type === "redacted_thinking")) {
      this.flush();
      this.thinkingBlock = { since: this.options.now(), index: event.index, redacted: event.content_block.type === "redacted_thinking" };
      this.out.update({ label: "Thinking" });
    } else if (event.type === "content_block_stop" && this.thinkingBlock?.index === event.index) {
      this.endThinking();
    }
  }

  private endThinking(): void {
    const block = this.thinkingBlock;
    const text = this.thinking.trim();
    this.thinking = "";
    this.thinkingBlock = undefined;
    if (block === undefined && text === "") return;
    const style = (line: string): string => this.theme.dim(this.theme.italic(line));
    const took = block ? ` for ${thoughtFor(this.options.now() - block.since)}` : "";
    const header = `✻ Thought${took}${block?.redacted ? " (redacted by the API)" : ""}`;
    if (!this.options.verbose) {
      this.commit("thinking", [this.oneRow(style(header))]);
      return;
    }
    // Models that omit thinking text (display "omitted") still send the block, with a signature.
    if (text === "") {
      this.commit("thinking", [style(block?.redacted ? header : `${header} (no thinking text returned)`)]);
      return;
    }
    this.commit("thinking", [style(header), ...text.split("\n").map((line) => style(`  ${line}`))]);
  }

  /** Commits complete lines of streamed text; with `all`, the unterminated rest too. */
  private flushLines(all: boolean): void {
    const cut = all ? this.text.length : this.text.lastIndexOf("\n") + 1;
    if (cut <= 0) return;
    const chunk = this.text.slice(0, cut);
    this.text = this.text.slice(cut);
    const lines = chunk.split("\n");
    if (chunk.endsWith("\n")) lines.pop();
    for (const line of lines) this.textLine(line);
    if (all) this.pendingBlank = 0;
  }

  /** Blank lines are held back until more text follows, so a block never ends with them. */
  private textLine(line: string): void {
    if (line.trim() === "") {
      if (this.lastBlock === "text") this.pendingBlank += 1;
      return;
    }
    const blanks = this.lastBlock === "text" ? Math.min(this.pendingBlank, 1) : 0;
    this.pendingBlank = 0;
    this.commit("text", [...Array<string>(blanks).fill(""), this.markdown.render(line)]);
  }

  /** A line kept to one row of the terminal (cut with an ellipsis), `indent` cells in from the edge. */
  private oneRow(line: string, indent = 0): string {
    const width = this.out.width();
    return width === undefined ? line : cutToWidth(line, Math.max(1, width - indent));
  }

  /** One blank line between blocks; consecutive tool lines and text lines stay together. */
  private commit(block: Block, lines: string[]): void {
    // Collapsed thinking lines in a row (interleaved thinking) read as one block.
    const joined = block === this.lastBlock && (block === "tool" || block === "text" || (block === "thinking" && !this.options.verbose));
    const prefix = joined ? "" : "\n";
    this.lastBlock = block;
    if (block !== "tool") this.lastLineTool = undefined;
    this.out.print(`${prefix}${lines.join("\n")}`);
  }
}

function contentText(content: Extract<AgentEvent, { type: "tool_end" }>["content"]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function bashPreview(output: string, theme: Theme): string[] {
  const lines = output.split("\n").filter((line) => line.trim() !== "" && line !== "(no output)" && !/^Exit code -?\d+$/.test(line));
  const shown = lines.slice(-BASH_PREVIEW_LINES).map((line) => theme.dim(clip(line, 160)));
  return lines.length > BASH_PREVIEW_LINES ? [theme.dim(`… ${lines.length - BASH_PREVIEW_LINES} earlier lines`), ...shown] : shown;
}

function outcomeProblem(outcome: LoopOutcome): { text: string; error: boolean } | undefined {
  switch (outcome.reason) {
    case "aborted_streaming":
    case "aborted_tools":
      return { text: "Interrupted · tell clew what to do instead", error: true };
    case "api_error":
      return { text: `API error${outcome.error?.status ? ` ${outcome.error.status}` : ""}: ${outcome.error?.message ?? "unknown error"}`, error: true };
    case "prompt_too_long":
      return { text: "The conversation no longer fits the model's context window. Use /compact or /clear.", error: true };
    case "max_turns":
      return { text: `Stopped after ${outcome.numTurns - 1} model round-trips (max turns).`, error: false };
    default:
      return undefined;
  }
}

/** "4s", at least one second; "1m 5s" past a minute. */
function thoughtFor(ms: number): string {
  return ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))}s` : formatDuration(ms);
}
