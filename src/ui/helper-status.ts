/**
 * Running helper agents as the live line shows them: one entry per helper — its type,
 * description, tools used so far and time since it started. A finished helper leaves the live
 * line; its Agent call's result line (one line) stays in the scrollback.
 */
import type { AgentEvent } from "../loop/events.ts";

interface Running {
  label: string;
  tools: number;
  startedAt: number;
}

type SubagentEvent = Extract<AgentEvent, { type: "subagent" }>;

export class HelperStatus {
  private readonly running = new Map<string, Running>();

  constructor(private readonly now: () => number) {}

  /** Applies one helper event; returns whether what the live line shows changed. */
  observe(event: SubagentEvent): boolean {
    const inner = event.event;
    const entry = this.running.get(event.agentId);
    if (inner.type === "turn_end") return this.running.delete(event.agentId);
    if (!entry) {
      this.running.set(event.agentId, { label: `${event.agentType}: ${event.description}${event.background ? " (background)" : ""}`, tools: inner.type === "tool_start" ? 1 : 0, startedAt: this.now() });
      return true;
    }
    if (inner.type !== "tool_start") return false;
    entry.tools += 1;
    return true;
  }

  get count(): number {
    return this.running.size;
  }

  /** `Explore: find the parser · 3 tools · 4s | Plan: …`, or undefined when none runs. */
  label(): string | undefined {
    if (this.running.size === 0) return undefined;
    const now = this.now();
    return [...this.running.values()]
      .map((entry) => `${entry.label} · ${entry.tools} tool${entry.tools === 1 ? "" : "s"} · ${Math.round((now - entry.startedAt) / 1000)}s`)
      .join(" | ");
  }
}
