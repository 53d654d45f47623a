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
export function createApiRouter(
  operations: readonly RoutedOperation[],
  modules: Readonly<Record<string, RouteModule>>,
) {
  const root = newNode();
  const patterns = new Set(operations.map((operation) => operation.path));
  const unmatched = Object.keys(modules).filter((pattern) => !patterns.has(pattern));
  const missing = [...patterns].filter((pattern) => !modules[pattern]);
  if (unmatched.length > 0 || missing.length > 0) {
    throw new Error(
      `the route files and the operations registry disagree: no operation for ${unmatched.join(", ") || "-"}; ` +
        `no route file for ${missing.join(", ") || "-"}`,
    );
  }
  for (const pattern of patterns) {
    let node = root;
    for (const segment of pattern.split("/").slice(1)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        node.param ??= { name, node: newNode() };
        if (node.param.name !== name)
          throw new Error(`${pattern}: one place, two parameter names (${node.param.name}, ${name})`);
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.route = { pattern, module: modules[pattern]! };
  }

  /** The route of a path, or of its segments as decoded (a decoded segment may hold a `/`). */
  return function match(path: string | readonly string[]): RouteMatch | null {
    const segments = ["", ...(typeof path === "string" ? path.split("/").slice(1) : path)];
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

/** A route of app/api outside /api/v1, matched: its module and its params (a catch-all's as its segments). */
export interface PathRouteMatch {
  pattern: string;
  module: RouteModule;
  params: Record<string, string | string[]>;
}

/**
 * The path table of app/api's route files outside /api/v1 (health, metrics, the callbacks, the
 * sandbox's simulators), by their path as server/build-lanes.mjs writes it: `:name` one segment,
 * `*name` the rest (one segment or more, a catch-all `[...name]`). As Next.js ranks them: more
 * static segments first, a catch-all last.
 */
export function createPathRouter(modules: Readonly<Record<string, RouteModule>>) {
  const routes = Object.entries(modules)
    .map(([pattern, module]) => ({ pattern, module, segments: pattern.split("/").slice(1) }))
    .map((route) => ({
      ...route,
      catchAll: route.segments.at(-1)?.startsWith("*") ?? false,
      statics: route.segments.filter((segment) => !/^[:*]/.test(segment)).length,
    }))
    .sort((a, b) => Number(a.catchAll) - Number(b.catchAll) || b.statics - a.statics);

  /** The route of a path, or of its segments as decoded. */
  return function match(path: string | readonly string[]): PathRouteMatch | null {
    const segments = typeof path === "string" ? path.split("/").slice(1) : path;
    for (const route of routes) {
      const fixed = route.catchAll ? route.segments.length - 1 : route.segments.length;
      if (route.catchAll ? segments.length <= fixed : segments.length !== fixed) continue;
      const params: Record<string, string | string[]> = {};
      const matches = route.segments.slice(0, fixed).every((segment, index) => {
        if (segment.startsWith(":")) params[segment.slice(1)] = segments[index]!;
        return segment.startsWith(":") || segment === segments[index];
      });
      if (!matches) continue;
      if (route.catchAll) params[route.segments.at(-1)!.slice(1)] = segments.slice(fixed);
      return { pattern: route.pattern, module: route.module, params };
    }
    return null;
  };
}
