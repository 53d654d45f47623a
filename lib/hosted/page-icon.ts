// The gateway's icon, in every page's <head> (app/layout.tsx's metadata, the console lane's document).
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0f766e"/>' +
  '<rect x="9.5" y="14.5" width="13" height="10" rx="2" fill="none" stroke="#fff" stroke-width="2"/>' +
  '<path d="M12.5 14.5v-3a3.5 3.5 0 0 1 7 0v3" fill="none" stroke="#fff" stroke-width="2" ' +
  'stroke-linecap="round"/></svg>';

/** A data: URL (the CSP's img-src admits it), so the icon costs no request of its own. */
export const PAGE_ICON_URL = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;
