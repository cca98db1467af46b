// Installs a realistic set of project extensions into a benchmark workspace: 50 skills, 20 agents,
// 10 commands and 3 settings hooks, none of which the scripted task uses. Run side by side with the
// bare workspace, the difference is what merely having extensions installed costs a session.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const EXTENSION_COUNTS = { skills: 50, agents: 20, commands: 10, hooks: 3 } as const;

const AREAS = ["api", "database", "frontend", "release", "security", "testing", "docs", "infra", "billing", "search"];
const VERBS = ["review", "migrate", "audit", "document", "profile"];

/** Deterministic filler prose of roughly `bytes` characters, so every run installs the same files. */
function prose(seed: number, bytes: number): string {
  const sentences = [
    "Start by reading the files the change touches and the tests that cover them.",
    "Prefer the smallest change that makes the behaviour correct, and say why in the commit message.",
    "Run the narrowest test command first, then the whole suite before you report success.",
    "When a step fails, quote the exact error and the command that produced it.",
    "Never edit generated files; change their source and regenerate them instead.",
    "Keep public interfaces stable unless the task explicitly asks for a breaking change.",
    "List any follow-up work you noticed but did not do, one line each.",
  ];
  const parts: string[] = [];
  for (let i = 0, length = 0; length < bytes; i++) {
    const sentence = sentences[(seed + i) % sentences.length] as string;
    parts.push(i % 4 === 3 ? `\n\n- ${sentence}` : sentence);
    length += sentence.length + 1;
  }
  return parts.join(" ");
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function skill(index: number): string {
  const area = AREAS[index % AREAS.length] as string;
  const verb = VERBS[Math.floor(index / AREAS.length) % VERBS.length] as string;
  const name = `${verb}-${area}-${index}`;
  const tools = index % 3 === 0 ? "Read, Grep, Glob" : index % 3 === 1 ? "Read, Edit, Bash(npm test *)" : "Read, Grep, Bash(git diff *)";
  const body = prose(index, 1024 + ((index * 37) % 2048));
  return [
    "---",
    `name: ${name}`,
    `description: ${verb[0]?.toUpperCase()}${verb.slice(1)} the ${area} layer of this repository. Use when the user asks to ${verb} ${area} code or when a change touches src/${area}/.`,
    `allowed-tools: ${tools}`,
    ...(index % 5 === 0 ? ["argument-hint: [path] [focus]"] : []),
    ...(index % 7 === 0 ? ["disable-model-invocation: true"] : []),
    "---",
    "",
    `# ${verb} ${area}`,
    "",
    body,
    "",
  ].join("\n");
}

function agent(index: number): string {
  const area = AREAS[index % AREAS.length] as string;
  return [
    "---",
    `name: ${area}-specialist-${index}`,
    `description: Expert in the ${area} code of this project. Use proactively for changes under src/${area}/.`,
    `tools: ${index % 2 === 0 ? "Read, Grep, Glob" : "Read, Edit, Bash"}`,
    `model: ${index % 3 === 0 ? "haiku" : "inherit"}`,
    "---",
    "",
    `You are the ${area} specialist. ${prose(index + 3, 600)}`,
    "",
  ].join("\n");
}

function command(index: number): string {
  const area = AREAS[index % AREAS.length] as string;
  return [
    "---",
    `description: Run the ${area} checks and summarise what failed`,
    "argument-hint: [scope]",
    "allowed-tools: Bash(npm run *), Read",
    "---",
    "",
    `Run the ${area} checks for $ARGUMENTS. ${prose(index + 5, 400)}`,
    "",
  ].join("\n");
}

// Hooks for tools and events the scripted tasks never reach: installed, so loaded, but unused.
const SETTINGS = {
  hooks: {
    PreToolUse: [{ matcher: "WebFetch|WebSearch", hooks: [{ type: "command", command: "true" }] }],
    PostToolUse: [{ matcher: "NotebookEdit", hooks: [{ type: "command", command: "true", timeout: 10 }] }],
    Notification: [{ hooks: [{ type: "command", command: "true" }] }],
  },
};

/** Adds the extensions to an existing workspace directory and returns it. */
export function installExtensions(dir: string): string {
  const claude = join(dir, ".claude");
  for (let i = 0; i < EXTENSION_COUNTS.skills; i++) {
    const text = skill(i);
    const name = /^name: (.+)$/m.exec(text)?.[1] ?? `skill-${i}`;
    write(join(claude, "skills", name, "SKILL.md"), text);
  }
  for (let i = 0; i < EXTENSION_COUNTS.agents; i++) write(join(claude, "agents", `${AREAS[i % AREAS.length]}-specialist-${i}.md`), agent(i));
  for (let i = 0; i < EXTENSION_COUNTS.commands; i++) write(join(claude, "commands", `check-${AREAS[i % AREAS.length]}.md`), command(i));
  write(join(claude, "settings.json"), `${JSON.stringify(SETTINGS, null, 2)}\n`);
  return dir;
}
