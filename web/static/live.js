// The live page follows the ledger: one EventSource, each message the page's sections as the
// server rendered them. The browser reconnects by itself after a drop; the server then sends
// the table as it stands, so the page catches up on whatever it missed.
(function () {
  "use strict";
  var status = document.getElementById("status");
  var token = new URLSearchParams(window.location.search).get("token");
  var url = "/stream" + (token ? "?token=" + encodeURIComponent(token) : "");
  var source = new EventSource(url);

  function say(text, lost) {
    status.textContent = text;
    status.className = lost ? "status lost" : "status";
  }

  source.addEventListener("table", function (message) {
    var update = JSON.parse(message.data);
    Object.keys(update.sections).forEach(function (id) {
      var element = document.getElementById(id);
      if (element && element.innerHTML !== update.sections[id]) {
        element.innerHTML = update.sections[id];
      }
    });
    document.body.setAttribute("data-entry", String(update.entry));
    say("As of entry #" + update.entry + ", live.", false);
  });
  source.addEventListener("error", function () {
    say("Connection lost; reconnecting\u2026", true);
  });
})();
