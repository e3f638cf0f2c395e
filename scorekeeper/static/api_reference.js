// The API reference (/api/docs): Swagger UI on the contract the server serves, openapi.yaml.
// Its settings live here rather than in the page, whose Content-Security-Policy allows no inline
// script. Nothing is fetched from elsewhere: no validator badge, no top bar to load other files.
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  const reference = document.getElementById("reference");
  if (!reference || typeof window.SwaggerUIBundle !== "function") return;
  window.SwaggerUIBundle({
    url: reference.dataset.spec,
    domNode: reference,
    layout: "BaseLayout",
    deepLinking: true, // each operation has an address (#/default/operationId) to share
    displayOperationId: true, // the names programs and clients know the operations by
    docExpansion: "list",
    defaultModelsExpandDepth: 0, // the schemas are listed, and open on a tap
    defaultModelExpandDepth: 2,
    showCommonExtensions: true, // maxLength, pattern, minimum… shown beside each field
    validatorUrl: null, // the default asks a server on the internet to check the document
  });

  // What Swagger UI leaves out for a screen reader or a keyboard, added as it renders: a name for
  // each drop-down (its visible label), a tab stop on each example that scrolls, and one tab stop
  // per operation's summary (its inner link to the operation's address is the button's twin).
  const LABELS = [ // where a drop-down's visible label is: its holder, and the label in it
    [".response-control-examples", ".response-control-examples__title"],
    [".response-control-media-type", ".response-control-media-type__title"],
    [".examples-select", ".examples-select__section-label"],
    [".scheme-container", ".servers-title"],
  ];
  const mend = () => {
    for (const select of reference.querySelectorAll("select:not([aria-label])")) {
      const label = LABELS.map(([holder, title]) => select.closest(holder)?.querySelector(title)).find(Boolean);
      select.setAttribute("aria-label", label ? label.textContent.replace(/:\s*$/, "").trim() : "Choice");
    }
    for (const block of reference.querySelectorAll("pre.microlight:not([tabindex]), .body-param__example:not([tabindex])")) {
      block.tabIndex = 0;
    }
    for (const link of reference.querySelectorAll(".opblock-summary-control a:not([tabindex])")) {
      link.tabIndex = -1;
    }
  };
  let due = false; // one pass per frame, however many nodes Swagger UI changed in it
  new MutationObserver(() => {
    if (due) return;
    due = true;
    requestAnimationFrame(() => { due = false; mend(); });
  }).observe(reference, { childList: true, subtree: true });
});
