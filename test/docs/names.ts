// What a block of the docs declares, and what it takes as given: read from its syntax tree.
import ts from 'typescript';

/**
 * The names a block declares at its top level, imports included: those with a value (no `declare`d
 * name, no type-only import), or with `types` every name it declares or imports; with `imports:
 * false`, only the names it makes itself (a prelude's, which a block may take, never its imports).
 */
export function topLevelNames(code: string, { types = false, imports = true }: { types?: boolean; imports?: boolean } = {}): string[] {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const ambient = (node: ts.Node): boolean => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
  const declaredNames = (statement: ts.VariableStatement | ts.FunctionDeclaration): string[] =>
    ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.flatMap((declaration) => bound(declaration.name))
      : statement.name === undefined
        ? []
        : [statement.name.text];
  const bound = (name: ts.BindingName): string[] =>
    ts.isIdentifier(name) ? [name.text] : name.elements.flatMap((element) => (ts.isBindingElement(element) ? bound(element.name) : []));
  return file.statements.flatMap((statement) => {
    if (ambient(statement)) return types && (ts.isVariableStatement(statement) || ts.isFunctionDeclaration(statement)) ? declaredNames(statement) : [];
    if (types && (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))) return [statement.name.text];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((declaration) => bound(declaration.name));
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name !== undefined) return [statement.name.text];
    if (imports && ts.isImportDeclaration(statement) && statement.importClause !== undefined && (types || !statement.importClause.isTypeOnly)) {
      const clause = statement.importClause;
      const bindings = clause.namedBindings;
      return [
        ...(clause.name === undefined ? [] : [clause.name.text]),
        ...(bindings === undefined
          ? []
          : ts.isNamespaceImport(bindings)
            ? [bindings.name.text]
            : bindings.elements.filter((element) => types || !element.isTypeOnly).map((element) => element.name.text)),
      ];
    }
    return [];
  });
}

/**
 * The names a block reads without declaring them anywhere in it: its identifiers, less property
 * names (`event.state`, `{ state: 1 }`), declarations and imports. What it takes as given.
 */
export function freeNames(code: string): string[] {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const used = new Set<string>();
  const declared = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isName = (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) && parent.getChildAt(2) === node;
      const isKey =
        (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) &&
        parent.name === node;
      const isDeclared =
        ((ts.isVariableDeclaration(parent) ||
          ts.isFunctionDeclaration(parent) ||
          ts.isClassDeclaration(parent) ||
          ts.isParameter(parent) ||
          ts.isBindingElement(parent)) &&
          parent.name === node) ||
        ts.isImportSpecifier(parent) ||
        ts.isImportClause(parent) ||
        ts.isNamespaceImport(parent) ||
        ts.isTypeReferenceNode(parent);
      if (isDeclared) declared.add(node.text);
      else if (!isName && !isKey) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...used].filter((name) => !declared.has(name));
}
