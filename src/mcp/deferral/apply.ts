/**
 * The glue the composition root calls once the session's MCP tools are known: decides deferral,
 * adds or leaves out ToolSearch, marks the API definitions, builds the search port, and hands
 * back the first catalogue reminder, the beta header and the history fix-up for each request.
 */
import type { AnyTool } from "../../tools/types.ts";
import { DeferralAnnouncer, type ServerInstructions } from "./catalogue.ts";
import { markDeferred, resolveReferences } from "./mark.ts";
import { isDeferrable, planDeferral, type DeferralInput, type DeferralPlan } from "./plan.ts";
import { DeferredToolIndex } from "./search.ts";

/** The beta Claude Code sends with deferred tools (observed); the API accepts `defer_loading` without it too. */
export const TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";
export const TOOL_SEARCH_TOOL_NAME = "ToolSearch";

export interface ApplyDeferralInput<Api extends { name: string }> extends Omit<DeferralInput, "tools"> {
  /** Every tool the session offers, built-in first, then MCP; ToolSearch may be among them or not. */
  tools: readonly AnyTool[];
  /** The ToolSearch tool (tools/tool-search.ts), offered only when something is deferred. */
  toolSearchTool: AnyTool;
  /** How a tool becomes its API definition (app/tool-set.ts `toApiTool`). */
  toApiTool: (tool: AnyTool) => Api;
  /** Connected servers' `instructions`, listed with their deferred tools. */
  instructions?: ServerInstructions;
}

type MessageLike = Parameters<typeof resolveReferences>[0][number];

export interface AppliedDeferral<Api extends { name: string }> {
  plan: DeferralPlan;
  /** The tools to offer and execute: ToolSearch included exactly when deferral is on. */
  tools: AnyTool[];
  /** `tools[]` for every request, deferred ones flagged `defer_loading: true`. */
  apiTools: Array<Api & { defer_loading?: true }>;
  /** Betas to add to `anthropic-beta` (see withBetaHeader); empty when nothing is deferred. */
  betas: string[];
  /** For `ToolSession.toolSearch`; undefined when nothing is deferred. */
  toolSearch: DeferredToolIndex | undefined;
  /** The catalogue for the first request's reminder (ContextManager.queue); undefined when off. */
  reminder: string | undefined;
  /**
   * Tools changed (a server connected, died, or sent list_changed): the same decision applied to
   * the new list. Returns the new definitions and the reminder announcing what changed, if anything.
   */
  refresh(tools: readonly AnyTool[], instructions?: ServerInstructions): { tools: AnyTool[]; apiTools: Array<Api & { defer_loading?: true }>; reminder: string | undefined };
  /** After compaction removed the earlier reminders: the next reminder lists every deferred tool again. */
  forgetAnnouncements(): void;
  /** Run on each request's messages (a copy is made only when something changes). */
  prepare<M extends MessageLike>(messages: readonly M[]): readonly M[];
}

/** ToolSearch goes after the built-in tools, before the first MCP tool; left out when not wanted. */
function withToolSearch(tools: readonly AnyTool[], toolSearch: AnyTool, wanted: boolean): AnyTool[] {
  const rest = tools.filter((tool) => tool.name !== toolSearch.name);
  if (!wanted) return rest;
  const firstMcp = rest.findIndex((tool) => tool.origin?.kind === "mcp");
  const at = firstMcp === -1 ? rest.length : firstMcp;
  return [...rest.slice(0, at), toolSearch, ...rest.slice(at)];
}

export function applyDeferral<Api extends { name: string }>(input: ApplyDeferralInput<Api>): AppliedDeferral<Api> {
  const plan = planDeferral(input);
  const announcer = new DeferralAnnouncer();
  const index = plan.enabled ? new DeferredToolIndex() : undefined;
  let deferred: ReadonlySet<string> = plan.deferred;

  const build = (tools: readonly AnyTool[], instructions: ServerInstructions) => {
    deferred = plan.enabled ? new Set(tools.filter(isDeferrable).map((tool) => tool.name)) : new Set();
    const offered = withToolSearch(tools, input.toolSearchTool, plan.enabled);
    index?.update(offered, deferred);
    return {
      tools: offered,
      apiTools: markDeferred(offered.map(input.toApiTool), deferred),
      reminder: plan.enabled ? announcer.announce(offered, deferred, instructions) : undefined,
    };
  };
  const first = build(input.tools, input.instructions ?? {});

  return {
    plan,
    ...first,
    betas: plan.enabled ? [TOOL_SEARCH_BETA] : [],
    toolSearch: index,
    refresh: (tools, instructions) => build(tools, instructions ?? input.instructions ?? {}),
    forgetAnnouncements: () => announcer.reset(),
    prepare: (messages) => resolveReferences(messages, deferred),
  };
}

/** Adds betas to an `anthropic-beta` header (comma-separated, whatever case the key was given in). */
export function withBetaHeader(headers: Readonly<Record<string, string>>, betas: readonly string[]): Record<string, string> {
  if (betas.length === 0) return { ...headers };
  const key = Object.keys(headers).find((name) => name.toLowerCase() === "anthropic-beta") ?? "anthropic-beta";
  const existing = (headers[key] ?? "").split(",").map((beta) => beta.trim()).filter(Boolean);
  const merged = [...existing, ...betas.filter((beta) => !existing.includes(beta))];
  return { ...headers, [key]: merged.join(",") };
}
