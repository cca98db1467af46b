/**
 * Short requests to a small, fast model on behalf of a tool (WebFetch applies its prompt to a
 * page, WebSearch runs the API's server-side search): the session's own stream — same endpoint,
 * headers, retries — and usage counted in the session's ledger, so `/cost`, `modelUsage` and
 * `--max-budget-usd` include it.
 */
import type { StreamFn } from "../model/types.ts";
import type { SideModelPort } from "../tools/types.ts";
import type { UsageLedger } from "./usage-ledger.ts";

const DEFAULT_MAX_TOKENS = 4_096;

export function sideModelPort(stream: StreamFn, resolveModel: (name: string) => string, ledger: () => UsageLedger): SideModelPort {
  return {
    async request(input, signal) {
      if (ledger().exceeded()) throw new Error("the session's --max-budget-usd is spent; no further request is made");
      const model = resolveModel(input.model ?? "haiku");
      const request = { model, maxTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS, system: [{ type: "text" as const, text: input.system }], tools: input.tools ?? [], messages: input.messages };
      for await (const event of stream(request, signal)) {
        if (event.type !== "message") continue;
        // Counted with the helpers' usage: outside the main conversation, inside the session's total and the json result.
        ledger().add(event.message.model || model, event.message.usage, true);
        return event.message;
      }
      throw new Error("the model sent no reply");
    },
  };
}
