// The built-in slash commands in a real terminal: each reports what it should and changes what
// it says it changes (model, conversation, history).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, lastUserMessageText, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

async function run(terminal: TmuxTerminal, line: string, until: string): Promise<string> {
  terminal.type(line);
  terminal.keys("Enter");
  await terminal.waitFor((screen) => screen.lastIndexOf(until) > screen.lastIndexOf(`> ${line}`), `the output of ${line}`);
  return terminal.after(`> ${line}`);
}

describe.skipIf(!hasTmux)("slash commands", () => {
  test("a custom command: Tab completes it with its hint and description; it runs with $ARGUMENTS, $1, a ! line and an @file", async () => {
    const server = await fake([reply().text("Reviewed.")]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(dir, ".claude", "commands", "review.md"),
      "---\ndescription: Review a file against the checklist\nargument-hint: <file> <focus>\n---\nReview $0 for $1 (asked: $ARGUMENTS).\nToday:\n!`echo LINE-RAN`\n@checklist.md\n",
    );
    writeFileSync(join(dir, "checklist.md"), "- CHECKLIST-ITEM\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("/revi");
    terminal.keys("Tab");
    await terminal.waitFor("/review <file> <focus>");
    await terminal.waitFor("Review a file against the checklist");
    terminal.type("main.ts naming");
    terminal.keys("Enter");
    await terminal.waitFor("Reviewed.");
    const sent = lastUserMessageText(server);
    expect(sent).toContain("Review main.ts for naming (asked: main.ts naming).");
    expect(sent).toContain("LINE-RAN");
    expect(sent).toContain("CHECKLIST-ITEM");
    terminal.kill();

    // A warm start (the index and start-up summary cached) completes the same way.
    const again = open({ cwd: dir, configDir, baseURL: server.url });
    await again.waitFor("/help for help");
    again.type("/revi");
    again.keys("Tab");
    await again.waitFor("/review <file> <focus>");
  });

  test("/skills lists skills and commands with their files, and a broken frontmatter as a warning naming file and line", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".claude", "skills", "deploy"), { recursive: true });
    mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
    writeFileSync(join(dir, ".claude", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Ship it: carefully\nargument-hint: [env] [\"x\"]\n---\nDeploy.\n");
    writeFileSync(join(dir, ".claude", "commands", "standup.md"), "---\ndescription: Summarise yesterday\n---\nSummarise.\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    const listing = await run(terminal, "/skills", "Problems:");
    expect(listing).toContain("/deploy");
    expect(listing).toContain("/standup");
    expect(listing).toContain(".claude/skills/deploy/SKILL.md");
    await terminal.waitFor(/SKILL\.md:\d+: warning/);
    expect(server.requests.length).toBe(0);
  });

  test("/hooks lists each configured hook with its event, matcher, command and file, and why one does not run", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".clew"));
    const local = join(dir, ".clew", "settings.local.json");
    const hooks = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo guard" }] }],
      Stop: [{ hooks: [{ type: "agent", prompt: "check the work" }] }],
    };
    writeFileSync(local, JSON.stringify({ hooks }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    const listing = await run(terminal, "/hooks", "check the work");
    expect(listing).toContain("PreToolUse");
    expect(listing).toContain("Bash");
    expect(listing).toContain("echo guard");
    expect(listing).toContain(".clew/settings.local.json");
    expect(listing.toLowerCase()).toContain("not supported");
    expect(server.requests.length).toBe(0);
  });

  test("/status, /permissions, /config, /context, /doctor and /memory report the session", async () => {
    const server = await fake([]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".clew"));
    writeFileSync(join(dir, ".clew", "settings.local.json"), JSON.stringify({ permissions: { allow: ["Bash(npm test *)"] } }));
    writeFileSync(join(dir, "AGENTS.md"), "# Project rules\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");

    const status = await run(terminal, "/status", "Settings files");
    expect(status).toContain("Version:");
    expect(status).toContain("0.1.0 (clew)");
    expect(status).toContain("claude-opus-5-5");
    expect(status).toMatch(new RegExp(`Working directory:\\s+${dir}\n`));
    expect(status).toMatch(/Permission mode:\s+default\n/);
    expect(status).toContain("API key (ANTHROPIC_API_KEY)");
    expect(status).toMatch(new RegExp(`Base URL:\\s+${server.url}\n`));
    await terminal.waitFor(join(dir, ".clew", "settings.local.json"));

    const permissions = await run(terminal, "/permissions", "Granted in this session");
    expect(permissions).toMatch(/Bash\(npm test \*\)\s+\.clew\/settings\.local\.json/);
    await run(terminal, "/permissions mode plan", "Permission mode: plan");
    await run(terminal, "/permissions mode bypassPermissions", "only available when clew starts in it");

    const config = await run(terminal, "/config", "Effective settings");
    await terminal.waitFor('"Bash(npm test *)"');
    expect(config).toContain("Effective settings");

    const context = await run(terminal, "/context", "Instruction files");
    expect(context).toMatch(/System prompt:\s+[0-9.]+k? tokens/);
    expect(context).toContain(join(dir, "AGENTS.md"));

    const doctor = await run(terminal, "/doctor", "tmux");
    expect(doctor).toContain("✓ API credentials: ANTHROPIC_API_KEY is set");
    expect(doctor).toContain("✓ Config directory");
    expect(terminal.screen()).not.toContain("sk-test-fake");

    const memory = await run(terminal, "/memory", "Set $EDITOR");
    expect(memory).toContain(join(dir, "AGENTS.md"));

    await run(terminal, "/nonsense", "Unknown command /nonsense");
    expect(server.requests.length).toBe(0);
  });

  test("/model switches the model, /init asks for AGENTS.md, /compact summarises, /clear starts over", async () => {
    const server = await fake([
      reply().text("I would write AGENTS.md now."),
      reply().text("Second answer."),
      reply().text("Summary: the user asked for AGENTS.md and a second thing."),
      reply().text("Fresh start."),
    ]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");

    await run(terminal, "/model sonnet", "Model set to claude-sonnet-5-5");
    await run(terminal, "/init", "I would write AGENTS.md now.");
    expect(server.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    expect(lastUserMessageText(server)).toContain("create an AGENTS.md file");
    await run(terminal, "and another thing", "Second answer.");

    await run(terminal, "/compact keep the AGENTS.md details", "Conversation compacted");
    expect(JSON.stringify(server.requests[2]?.body.messages)).toContain("keep the AGENTS.md details");

    await run(terminal, "/clear", "New conversation");
    await run(terminal, "hello again", "Fresh start.");
    const messages = server.requests[3]?.body.messages as unknown[];
    expect(messages.length).toBe(1);
    expect(server.violations).toEqual([]);
  });
});

describe.skipIf(!hasTmux)("handing the terminal over", () => {
  test("/memory <file> opens it in $EDITOR with the keyboard handed over, then the prompt works again", async () => {
    const server = await fake([reply().text("Back at the prompt.")]);
    const { dir, configDir } = workspace();
    const editor = join(dir, "fake-editor.sh");
    writeFileSync(editor, '#!/bin/sh\nprintf "editor> "\nread line\necho "- $line" >> "$1"\n', { mode: 0o755 });
    writeFileSync(join(dir, "AGENTS.md"), "# Rules\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, env: { EDITOR: editor } });
    await terminal.waitFor("/help for help");
    terminal.type(`/memory ${join(dir, "AGENTS.md")}`);
    terminal.keys("Enter");
    await terminal.waitFor("editor> ");
    terminal.type("typed in the editor");
    terminal.keys("Enter");
    await waitForFile(join(dir, "AGENTS.md"), "- typed in the editor\n");
    terminal.type("still there?");
    terminal.keys("Enter");
    await terminal.waitFor("Back at the prompt.");
    expect(lastUserMessageText(server)).toContain("still there?");
  });
});

async function waitForFile(path: string, suffix: string): Promise<void> {
  const started = Date.now();
  while (!(await Bun.file(path).text()).endsWith(suffix)) {
    if (Date.now() - started > 20_000) throw new Error(`${path} never ended with ${JSON.stringify(suffix)}`);
    await Bun.sleep(40);
  }
}
