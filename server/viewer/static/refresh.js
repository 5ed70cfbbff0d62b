// Reload the page when what it shows has changed (a running plan appears step by step).
// The page's own data never runs: it is escaped text; this file is the only script.
(function () {
  const body = document.body;
  const url = body.dataset.versionUrl;
  let seen = body.dataset.version;
  async function poll() {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (response.ok) {
        const now = (await response.json()).version;
        if (now !== seen) { seen = now; window.location.reload(); return; }
      }
    } catch (error) { /* the viewer stopped; try again later */ }
    setTimeout(poll, 2000);
  }
  setTimeout(poll, 2000);
})();
