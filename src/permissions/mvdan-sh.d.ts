/**
 * The slice of mvdan-sh (mvdan/sh's bash parser compiled to JavaScript with GopherJS) that the
 * shell splitter uses. Nodes are GopherJS wrappers: fields read like properties, positions are
 * methods, and offsets count UTF-8 bytes, not UTF-16 code units.
 */
declare module "mvdan-sh" {
  export interface ShPos {
    Offset(): number;
  }

  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
  }

  export interface ShFile extends ShNode {
    Stmts: ShStmt[];
  }

  export interface ShStmt extends ShNode {
    Cmd: ShNode | null;
    Redirs: ShRedirect[];
    Background: boolean;
    Negated: boolean;
  }

  export interface ShRedirect extends ShNode {
    Op: number;
    N: ShLit | null;
    Word: ShWord | null;
    Hdoc: ShWord | null;
  }

  export interface ShWord extends ShNode {
    Parts: ShNode[];
  }

  export interface ShLit extends ShNode {
    Value: string;
  }

  export interface ShParser {
    Parse(source: string, name: string): ShFile;
  }

  export interface ShSyntax {
    NewParser(): ShParser;
    NodeType(node: unknown): string;
    /** Visits `node` and, while `visit` returns true, its children (depth first). */
    Walk(node: unknown, visit: (node: unknown) => boolean): void;
  }

  const mvdanSh: { syntax: ShSyntax };
  export default mvdanSh;
}
