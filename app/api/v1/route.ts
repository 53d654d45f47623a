// GET|POST|PUT|PATCH|DELETE|OPTIONS /api/v1 itself: the same JSON 404 as any unknown path below it
// (the catch-all needs at least one segment, and Next.js would answer its HTML page).
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "./[...unknown]/route";
