// The steps of a play without reloading the page. A form of a play (a move, undo, end, a
// fix) is sent with fetch; the page the server answers with (the play after the step, or
// the same form with its one message) takes the place of <main>, the address follows it,
// and the page stays where the thumb left it. The step is marked (X-Sheetkit-Step), so the
// server answers a move with the play's page itself instead of a redirect to it: one
// request a move; an answer names its page's address (X-Sheetkit-Page), also when it is a
// step refused at the step's own address. With scripts off the forms post as ever and the
// answer's 303 brings the next page.
(function () {
  "use strict";
  var busy = false;

  function runScripts(main) {
    // scripts that came with the new content run again (a game's own, e.g. the map's taps)
    main.querySelectorAll("script[src]").forEach(function (old) {
      var s = document.createElement("script");
      s.src = old.getAttribute("src");
      old.replaceWith(s);
    });
  }

  function show(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!next || !main) {
      window.location.assign(url);
      return;
    }
    var y = window.scrollY;
    document.title = doc.title;
    doc.querySelectorAll('head link[rel="stylesheet"]').forEach(function (link) {  // a game's own styles
      var href = link.getAttribute("href");
      if (!document.querySelector('head link[rel="stylesheet"][href="' + href + '"]')) {
        document.head.appendChild(document.importNode(link, true));
      }
    });
    main.replaceWith(next);
    runScripts(next);
    if (url && url !== window.location.href) {
      var same = new URL(url).pathname === window.location.pathname;
      window.history[same ? "replaceState" : "pushState"](null, "", url);
    }
    var error = next.querySelector("#error");
    if (error) {
      error.scrollIntoView({block: "center"});
    } else {
      window.scrollTo(0, y);
    }
    document.dispatchEvent(new CustomEvent("sheetkit:updated", {detail: {url: url}}));
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (!form.closest("main") || form.enctype === "multipart/form-data") return;  // uploads post as ever
    var by = ev.submitter;  // a button may post elsewhere than its form (formaction: "score and finish")
    var target = by && by.hasAttribute("formaction") ? by.getAttribute("formaction") : form.getAttribute("action");
    var action = new URL(target || "", window.location.href);
    if (action.origin !== window.location.origin || action.pathname.indexOf("/play/") !== 0) return;
    ev.preventDefault();
    if (busy) return;  // a second tap while the first is on its way: the server takes one
    busy = true;
    var body = new URLSearchParams(new FormData(form, by || null));
    fetch(action.href, {method: "POST", body: body, credentials: "same-origin", redirect: "follow",
                        headers: {"Accept": "text/html", "X-Sheetkit-Step": "1"}})
      .then(function (r) {
        var page = r.headers.get("X-Sheetkit-Page");
        return r.text().then(function (text) { show(text, page ? new URL(page, r.url).href : r.url); });
      })
      .catch(function () {
        busy = false;
        form.submit();  // no answer (the server restarting?): post it the old way
      })
      .then(function () { busy = false; });
  });
})();
