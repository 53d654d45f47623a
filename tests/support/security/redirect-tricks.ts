/**
 * Redirect targets that try to leave the allow-listed origin `https://shop.example` while
 * looking like it: other origins, scheme tricks, userinfo, backslashes, lookalike hosts.
 * Shared by the vitest suite and the Playwright spec of the rendered return page.
 */
export const REDIRECT_TRICKS = [
  "https://evil.example/steal",
  "//evil.example/steal",
  "///evil.example/steal",
  "/\\evil.example/steal",
  "\\\\evil.example\\steal",
  "https:\\\\evil.example\\steal",
  "https:/\\evil.example",
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "https://shop.example@evil.example/",
  "https://shop.example%40evil.example/",
  "https://shop.example:443@evil.example/",
  "https://user:pass@shop.example/",
  "https://shop.example.evil.example/",
  "https://shop.example./",
  "https://evil.example#https://shop.example/",
  "https://evil.example/?next=https://shop.example/",
  "http://shop.example/downgraded",
  "https://shop.example:8443/other-port",
  "HTTPS://EVIL.EXAMPLE/",
  "https://evil.example\\@shop.example/",
  "https://xn--shp-fla.example/",
  "https://127.0.0.1/",
  "ftp://shop.example/",
];
