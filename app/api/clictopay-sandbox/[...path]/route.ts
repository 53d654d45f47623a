export { GET, POST } from "@/lib/http/redirect-simulator-route";
