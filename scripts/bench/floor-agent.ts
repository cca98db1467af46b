// The floor: a minimal compiled Bun agent (raw fetch + SSE, three tools, no safety, no
// transcript) doing the same scripted tasks. The benchmark reports clew relative to it.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Block = { type: string; text?: string; id?: string; name?: string; input?: Record<string, unknown> };
const base = process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com";
const prompt = process.argv[process.argv.length - 1] ?? "";
const tools = ["Read", "Grep", "Edit", "Bash"].map((name) => ({ name, description: name, input_schema: { type: "object" } }));
const messages: Array<{ role: string; content: unknown }> = [{ role: "user", content: prompt }];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

async function runTool(block: Block): Promise<string> {
  const input = block.input ?? {};
  switch (block.name) {
    case "Read":
      return readFileSync(String(input.file_path), "utf8").split("\n").map((line, i) => `${i + 1}\t${line}`).join("\n");
    case "Grep": {
      const pattern = new RegExp(String(input.pattern));
      const root = String(input.path ?? process.cwd());
      return walk(root).flatMap((file) => readFileSync(file, "utf8").split("\n").flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}:${line}`] : []))).join("\n");
    }
    case "Edit": {
      const file = String(input.file_path);
      writeFileSync(file, readFileSync(file, "utf8").replace(String(input.old_string), String(input.new_string)));
      return "ok";
    }
    default: {
      const child = Bun.spawnSync(["bash", "-c", String(input.command)]);
      return child.stdout.toString() + child.stderr.toString();
    }
  }
}

for (;;) {
  const response = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": process.env.ANTHROPIC_API_KEY ?? "", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-floor", max_tokens: 4096, stream: true, tools, messages }),
  });
  const blocks: Block[] = [];
  const json = new Map<number, string>();
  let stop = "";
  for (const line of (await response.text()).split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const event = JSON.parse(line.slice(6));
    if (event.type === "content_block_start") blocks[event.index] = { ...event.content_block };
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") (blocks[event.index] as Block).text += event.delta.text;
    if (event.type === "content_block_delta" && event.delta.type === "input_json_delta") json.set(event.index, (json.get(event.index) ?? "") + event.delta.partial_json);
    if (event.type === "content_block_stop" && json.has(event.index)) (blocks[event.index] as Block).input = JSON.parse(json.get(event.index) || "{}");
    if (event.type === "message_delta") stop = event.delta.stop_reason;
  }
  messages.push({ role: "assistant", content: blocks });
  if (stop !== "tool_use") {
    console.log(blocks.filter((block) => block.type === "text").map((block) => block.text).join(""));
    break;
  }
  const results = [];
  for (const block of blocks) if (block.type === "tool_use") results.push({ type: "tool_result", tool_use_id: block.id, content: await runTool(block) });
  messages.push({ role: "user", content: results });
}
