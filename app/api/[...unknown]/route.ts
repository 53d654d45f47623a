// Any unknown path under /api (outside /api/v1 too): the API's JSON 404 with its headers,
// never Next.js's HTML page.
export { DELETE, GET, PATCH, POST, PUT } from "../v1/[...unknown]/route";
