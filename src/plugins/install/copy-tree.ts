/**
 * Copies a fetched plugin folder into the cache with the symlink rules of plugins.md §10.3: a
 * link whose target is inside the plugin stays a (relative) link; a target elsewhere inside the
 * same marketplace is copied in its place; a target outside the marketplace, or one that does
 * not exist, is left out and reported. Git metadata (`.git` folders, submodule `.git` files) is
 * never copied: it is not part of the plugin and differs between clones.
 */
import { chmodSync, copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

export interface SkippedLink {
  /** Path inside the plugin, `/`-separated. */
  path: string;
  target: string;
  reason: string;
}

export interface CopyReport {
  skipped: SkippedLink[];
}

function inside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

interface CopyContext {
  pluginReal: string;
  marketplaceReal: string | undefined;
  to: string;
  report: CopyReport;
  /** Real folders being copied by dereference, so a link cycle cannot recurse forever. */
  open: Set<string>;
}

function copyFile(from: string, to: string): void {
  copyFileSync(from, to);
  chmodSync(to, statSync(from).mode & 0o777);
}

function copyLink(context: CopyContext, fromFull: string, relPath: string, destFull: string): void {
  const target = realOrUndefined(fromFull);
  if (target === undefined) {
    context.report.skipped.push({ path: relPath, target: fromFull, reason: "its target does not exist" });
    return;
  }
  if (inside(context.pluginReal, target)) {
    const destTarget = join(context.to, relative(context.pluginReal, target));
    symlinkSync(relative(dirname(destFull), destTarget) || ".", destFull);
    return;
  }
  if (context.marketplaceReal !== undefined && inside(context.marketplaceReal, target)) {
    if (statSync(target).isDirectory()) copyFolder(context, target, relPath, destFull);
    else copyFile(target, destFull);
    return;
  }
  context.report.skipped.push({ path: relPath, target, reason: "it points outside the marketplace" });
}

function copyFolder(context: CopyContext, fromDir: string, relDir: string, destDir: string): void {
  const real = realOrUndefined(fromDir) ?? fromDir;
  if (context.open.has(real)) {
    context.report.skipped.push({ path: relDir, target: real, reason: "it links back into a folder being copied" });
    return;
  }
  context.open.add(real);
  mkdirSync(destDir, { recursive: true });
  for (const name of readdirSync(fromDir).sort()) {
    if (name === ".git") continue;
    const fromFull = join(fromDir, name);
    const relPath = relDir === "" ? name : `${relDir}/${name}`;
    const destFull = join(destDir, name);
    const stats = lstatSync(fromFull);
    if (stats.isSymbolicLink()) copyLink(context, fromFull, relPath, destFull);
    else if (stats.isDirectory()) copyFolder(context, fromFull, relPath, destFull);
    else if (stats.isFile()) copyFile(fromFull, destFull);
  }
  context.open.delete(real);
}

/** `to` must not exist yet. `marketplaceRoot`: the marketplace copy the plugin came from, if any. */
export function copyPluginTree(from: string, to: string, marketplaceRoot?: string): CopyReport {
  const report: CopyReport = { skipped: [] };
  const pluginReal = realpathSync(from);
  const marketplaceReal = marketplaceRoot === undefined ? undefined : realOrUndefined(marketplaceRoot);
  copyFolder({ pluginReal, marketplaceReal, to, report, open: new Set() }, pluginReal, "", to);
  return report;
}
