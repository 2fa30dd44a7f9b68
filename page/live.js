(function () {
  "use strict";
  // The live page: the server sends the whole page again on each change
  // (event "page"); the report part is swapped in place, keeping which
  // folds are open. EventSource reconnects by itself (retry: 1 s).
  var es = new EventSource("events");
  function status(text, off) {
    var el = document.getElementById("live");
    if (el) {
      el.textContent = text;
      el.className = off ? "live off" : "live";
    }
  }
  es.addEventListener("page", function (ev) {
    var doc = new DOMParser().parseFromString(ev.data, "text/html");
    var next = doc.getElementById("report");
    var cur = document.getElementById("report");
    if (!next || !cur) {
      return;
    }
    var open = {};
    cur.querySelectorAll("details[id]").forEach(function (d) { open[d.id] = d.open; });
    next.querySelectorAll("details[id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(open, d.id)) {
        d.open = open[d.id];
      }
    });
    var focused = document.activeElement && document.activeElement.id;
    cur.replaceWith(document.adoptNode(next));
    document.title = doc.title;
    if (focused) {
      var f = document.getElementById(focused);
      if (f) { f.focus(); }
    }
    document.documentElement.setAttribute("data-version", ev.lastEventId);
    status("live", false);
  });
  es.onopen = function () { status("live", false); };
  es.onerror = function () { status("reconnecting…", true); };
})();
