/** What the router reads of an operation of the registry (lib/api/operations). */
export interface RoutedOperation {
  method: string;
  path: string;
}

/** A route file's exports: its method handlers (endpoint(), the refusals of otherMethods(), OPTIONS). */
export type RouteModule = Record<string, unknown>;

export interface RouteMatch {
  /** The registry's path, `/api/v1/payments/intents/:id/check`. */
  pattern: string;
  module: RouteModule;
  params: Record<string, string>;
}

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  route?: { pattern: string; module: RouteModule };
}

const newNode = (): Node => ({ statics: new Map() });

/**
 * The path table of /api/v1: every path of the operations registry, each bound to its route
 * file's module (the route files stay the home of the handlers; the registry names what
 * exists). A static segment wins over a parameter at the same place, as in Next.js's routing.
 * Throws when a registry path has no route module, or a module has no registry path: the two
 * must name the same routes.
 */
export function createApiRouter(operations: readonly RoutedOperation[], modules: Readonly<Record<string, RouteModule>>) {
  const root = newNode();
  const patterns = new Set(operations.map((operation) => operation.path));
  const unmatched = Object.keys(modules).filter((pattern) => !patterns.has(pattern));
  const missing = [...patterns].filter((pattern) => !modules[pattern]);
  if (unmatched.length > 0 || missing.length > 0) {
    throw new Error(`the route files and the operations registry disagree: no operation for ${unmatched.join(", ") || "-"}; no route file for ${missing.join(", ") || "-"}`);
  }
  for (const pattern of patterns) {
    let node = root;
    for (const segment of pattern.split("/").slice(1)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        node.param ??= { name, node: newNode() };
        if (node.param.name !== name) throw new Error(`${pattern}: one place, two parameter names (${node.param.name}, ${name})`);
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.route = { pattern, module: modules[pattern]! };
  }

  /** The route of a path whose segments need no decoding (the lane sends any other to Next.js). */
  return function match(pathname: string): RouteMatch | null {
    const segments = pathname.split("/");
    const params: Record<string, string> = {};
    const walk = (node: Node, index: number): RouteMatch | null => {
      if (index === segments.length) return node.route ? { ...node.route, params } : null;
      const segment = segments[index]!;
      const next = node.statics.get(segment);
      const found = next ? walk(next, index + 1) : null;
      if (found || !node.param) return found;
      params[node.param.name] = segment;
      const viaParam = walk(node.param.node, index + 1);
      if (!viaParam) delete params[node.param.name];
      return viaParam;
    };
    return walk(root, 1);
  };
}
