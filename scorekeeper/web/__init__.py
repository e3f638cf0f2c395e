"""Web plumbing shared by the API and the pages: HTTP conditions and errors, problem+json, JSON,
security headers, logs, assets, the page cache, the catalogs and the table's credentials."""
