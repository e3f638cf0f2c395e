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
    deepLinking: true, // each operation has an address (#/tag/operationId) to share
    displayOperationId: true, // the names programs and clients know the operations by
    docExpansion: "list",
    defaultModelsExpandDepth: 0, // the schemas are listed, and open on a tap
    defaultModelExpandDepth: 2,
    showExtensions: false,
    showCommonExtensions: true, // maxLength, pattern, minimum… shown beside each field
    validatorUrl: null, // the default asks a server on the internet to check the document
  });
});
