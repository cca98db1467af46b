import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_PROMPT_IMAGES, pastedImagePaths } from "../../../src/cli/prompt-images.ts";
import { resolveMentions } from "../../../src/cli/prompt-input.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";
import { pngBytes } from "../../helpers/notebooks.ts";

const image = (bytes: Buffer) => ({ type: "image", source: { type: "base64", media_type: "image/png", data: bytes.toString("base64") } }) as const;

/** The user message repl.ts builds: the prompt, then every attachment's blocks. */
function userContent(prompt: string, cwd: string): unknown[] {
  return [{ type: "text", text: prompt }, ...resolveMentions(prompt, cwd).attachments.flatMap((attachment) => attachment.blocks)];
}

describe("images in a prompt", () => {
  test("@shot.png becomes a line naming it and an image block, shown as one line with its size", () => {
    const dir = tempDirectory("clew-prompt-image-");
    const shot = pngBytes(64, 48);
    writeFileSync(join(dir, "shot.png"), shot);
    const file = join(dir, "shot.png");
    const facts = `64×48 px, ${shot.length} B`;
    expect(resolveMentions("what is wrong in @shot.png?", dir)).toEqual({
      attachments: [
        {
          mention: "shot.png",
          text: `The user attached the image ${file} (${facts}):`,
          blocks: [{ type: "text", text: `The user attached the image ${file} (${facts}):` }, image(shot)],
          summary: `Attached shot.png (${facts})`,
        },
      ],
      missing: [],
      denied: [],
    });
  });

  test("paths pasted or dragged in, in each terminal's form, attach their images; other paths stay text", () => {
    const dir = tempDirectory("clew-prompt-paste-");
    mkdirSync(join(dir, "Screen Shots"));
    const one = pngBytes(10, 10);
    const two = pngBytes(20, 10);
    const three = pngBytes(30, 10);
    const four = pngBytes(40, 10);
    writeFileSync(join(dir, "Screen Shots", "one.png"), one);
    writeFileSync(join(dir, "Screen Shots", "two 2.PNG"), two);
    writeFileSync(join(dir, "three.png"), three);
    writeFileSync(join(dir, "four.png"), four);
    writeFileSync(join(dir, "fake.png"), "not an image");
    const escaped = join(dir, "Screen Shots", "one.png").replace(/ /g, "\\ ");
    const prompt = [
      `compare ${escaped}`,
      `with '${join(dir, "Screen Shots", "two 2.PNG")}',`,
      `"${join(dir, "three.png")}" and file://${encodeURI(join(dir, "four.png"))}.`,
      `Ignore ${join(dir, "fake.png")} and ${join(dir, "gone.png")}.`,
    ].join(" ");
    const { attachments, missing } = resolveMentions(prompt, dir);
    expect(missing).toEqual([]);
    expect(attachments.map((attachment) => attachment.summary)).toEqual([
      `Attached Screen Shots/one.png (10×10 px, ${one.length} B)`,
      `Attached Screen Shots/two 2.PNG (20×10 px, ${two.length} B)`,
      `Attached three.png (30×10 px, ${three.length} B)`,
      `Attached four.png (40×10 px, ${four.length} B)`,
    ]);
    expect(userContent(prompt, dir).filter((block) => (block as { type: string }).type === "image")).toEqual([image(one), image(two), image(three), image(four)]);
  });

  test("the pasted forms are read as the paths they stand for", () => {
    expect(
      pastedImagePaths(
        [
          "/Users/me/Desktop/Screen\\ Shot\\ 2026-12-01.png",
          "'/tmp/with space.jpg'",
          '"/tmp/q.webp"',
          "file:///tmp/caf%C3%A9.gif",
          "(/tmp/in-parens.jpeg)",
          "@/tmp/mentioned.png",
          "/tmp/notes.txt",
          "relative/shot.png",
          "/tmp/end-of-clause.png, then",
        ].join(" "),
      ),
    ).toEqual(["/Users/me/Desktop/Screen Shot 2026-12-01.png", "/tmp/with space.jpg", "/tmp/q.webp", "/tmp/café.gif", "/tmp/end-of-clause.png"]);
  });

  test("an image over the API's limits is not sent: the model is told, the screen says why", () => {
    const dir = tempDirectory("clew-prompt-limits-");
    writeFileSync(join(dir, "panorama.png"), pngBytes(9000, 4));
    const big = Buffer.concat([pngBytes(8, 8), Buffer.alloc(4 * 1024 * 1024, 1)]);
    writeFileSync(join(dir, "photo.png"), big);
    const { attachments } = resolveMentions("see @panorama.png and @photo.png", dir);
    const tooWide = "is 9000×4 px, larger than the 8000×8000 px the API accepts";
    const tooHeavy = `is ${(big.length / (1024 * 1024)).toFixed(2)} MB, more than the 3.75 MB the API accepts for one image (5 MB once base64-encoded)`;
    expect(attachments).toEqual([
      {
        mention: "panorama.png",
        text: `The user attached the image ${join(dir, "panorama.png")}, but it was not sent: it ${tooWide}.`,
        blocks: [{ type: "text", text: `The user attached the image ${join(dir, "panorama.png")}, but it was not sent: it ${tooWide}.` }],
        summary: `Not attached panorama.png: it ${tooWide}`,
      },
      {
        mention: "photo.png",
        text: `The user attached the image ${join(dir, "photo.png")}, but it was not sent: it ${tooHeavy}.`,
        blocks: [{ type: "text", text: `The user attached the image ${join(dir, "photo.png")}, but it was not sent: it ${tooHeavy}.` }],
        summary: `Not attached photo.png: it ${tooHeavy}`,
      },
    ]);
  });

  test(`at most ${MAX_PROMPT_IMAGES} images go with one prompt; an image named twice goes once`, () => {
    const dir = tempDirectory("clew-prompt-many-");
    const names = Array.from({ length: MAX_PROMPT_IMAGES + 1 }, (_, i) => `img${String(i).padStart(2, "0")}.png`);
    for (const name of names) writeFileSync(join(dir, name), pngBytes(4, 4));
    const prompt = `${names.map((name) => `@${name}`).join(" ")} ${join(dir, names[0] ?? "")}`;
    const { attachments } = resolveMentions(prompt, dir);
    expect(attachments.length).toBe(MAX_PROMPT_IMAGES + 1);
    expect(userContent(prompt, dir).filter((block) => (block as { type: string }).type === "image").length).toBe(MAX_PROMPT_IMAGES);
    expect(attachments.at(-1)?.summary).toBe(`Not attached ${names.at(-1)}: it is past the ${MAX_PROMPT_IMAGES} images one prompt may carry`);
  });

  test("an @-mentioned PDF is left to Read, with a note saying so", () => {
    const dir = tempDirectory("clew-prompt-pdf-");
    writeFileSync(join(dir, "spec.pdf"), "%PDF-1.7\n%\u00e2\u00e3\n");
    const file = join(dir, "spec.pdf");
    expect(resolveMentions("summarise @spec.pdf", dir)).toEqual({
      attachments: [
        {
          mention: "spec.pdf",
          text: `The user mentioned the PDF ${file} (as @spec.pdf). Read it with the Read tool; a PDF of more than 10 pages needs pages (for example "1-10").`,
          blocks: [{ type: "text", text: `The user mentioned the PDF ${file} (as @spec.pdf). Read it with the Read tool; a PDF of more than 10 pages needs pages (for example "1-10").` }],
          summary: "Mentioned spec.pdf (a PDF: the model reads it with Read)",
        },
      ],
      missing: [],
      denied: [],
    });
  });
});
