// A player's page (body data-page="play") and the GM's panel (data-page="gm"). The server renders
// every section; this script follows the page's stream and posts the forms as JSON with the page's
// CSRF token. Each submission carries its own key: a second tap of the same form within REPEAT ms
// of the first sends the same key again (the server records it once: a double tap is one entry);
// after that, or after a refusal or an edit of the form, a tap is a new submission.
(function () {
  "use strict";
  var body = document.body;
  var status = document.getElementById("status");
  var said = document.getElementById("said");
  var csrf = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
  var REPEAT = 2000;

  function say(element, text, bad) {
    if (!element) { return; }
    element.textContent = text;
    element.className = element.id === "status" ? (bad ? "status lost" : "status") : (bad ? "said refused" : "said");
  }

  function newKey() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);  // randomUUID wants HTTPS; a table's Wi-Fi may serve plain HTTP
    return "page-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function post(url, payload) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: JSON.stringify(payload)
    }).then(function (response) {
      return response.json().then(function (answer) { return {ok: response.ok, answer: answer}; },
        function () { return {ok: false, answer: {error: "The server answered " + response.status + "."}}; });
    }, function () { return {ok: false, answer: {error: "The server cannot be reached; try again."}}; });
  }

  function value(input) {
    var kind = input.getAttribute("data-kind");
    var text = input.value.trim();
    if (kind === "flag") { return input.checked; }
    if (text === "") { return undefined; }  // an empty faces field: the program rolls
    if (kind === "faces") {
      var faces = text.split(/[\s,]+/).filter(Boolean).map(Number);
      return faces.every(function (f) { return Number.isInteger(f); }) ? faces : text;
    }
    if (kind === "int") { return Number.isInteger(Number(text)) ? Number(text) : text; }
    return text;
  }

  function submit(form) {
    var now = Date.now();
    if (!form.dataset.key || now - Number(form.dataset.sent) > REPEAT) { form.dataset.key = newKey(); }
    form.dataset.sent = String(now);
    var fields = {};
    Array.prototype.forEach.call(form.querySelectorAll("[data-kind]"), function (input) {
      var v = value(input);
      if (v !== undefined) { fields[input.name] = v; }
    });
    say(said, "Sending\u2026", false);
    post("/play/act", {action: form.getAttribute("data-action"), fields: fields, key: form.dataset.key})
      .then(function (result) {
        if (!result.ok) { delete form.dataset.key; }  // refused: nothing recorded, the next tap is new
        say(said, result.ok ? result.answer.said : result.answer.error, !result.ok);
      });
  }

  var shown = {};  // each section's HTML as last drawn from the stream

  function kept(element) {
    // What the player is typing, and each form's submission key, by offer and field name.
    var state = {};
    Array.prototype.forEach.call(element.querySelectorAll("form[data-action]"), function (form) {
      var values = {};
      Array.prototype.forEach.call(form.querySelectorAll("[data-kind]"), function (input) {
        values[input.name] = input.type === "checkbox" ? input.checked : input.value;
      });
      state[form.getAttribute("data-offer")] = {values: values, key: form.dataset.key, sent: form.dataset.sent};
    });
    return state;
  }

  function restore(element, state) {
    Array.prototype.forEach.call(element.querySelectorAll("form[data-action]"), function (form) {
      var was = state[form.getAttribute("data-offer")];
      if (!was) { return; }
      if (was.key) { form.dataset.key = was.key; form.dataset.sent = was.sent; }
      Array.prototype.forEach.call(form.querySelectorAll("[data-kind]"), function (input) {
        if (!(input.name in was.values)) { return; }
        if (input.type === "checkbox") { input.checked = was.values[input.name]; }
        else { input.value = was.values[input.name]; }
      });
    });
  }

  function fill(sections) {
    // A section is drawn again only when the server's HTML for it changed, and a form being
    // filled in keeps its values (another player's action must not wipe what this one typed).
    Object.keys(sections).forEach(function (id) {
      var element = document.getElementById(id);
      if (!element || shown[id] === sections[id]) { return; }
      var state = kept(element);
      element.innerHTML = sections[id];
      restore(element, state);
      shown[id] = sections[id];
    });
  }

  function follow(url, event, onUpdate) {
    var source = new EventSource(url);
    source.addEventListener(event, function (message) {
      onUpdate(JSON.parse(message.data));
      say(status, "As of entry #" + body.getAttribute("data-entry") + ", live.", false);
    });
    source.addEventListener("closed", function (message) {  // the seat was revoked or rotated
      source.close();
      say(status, JSON.parse(message.data).error, true);
      Array.prototype.forEach.call(document.querySelectorAll("form button"), function (b) { b.disabled = true; });
    });
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED) { say(status, "Connection lost; reconnecting\u2026", true); }
      else { say(status, "This page is closed: open your invite link again.", true); }
    });
  }

  if (body.getAttribute("data-page") === "play") {
    document.addEventListener("submit", function (event) {
      var form = event.target.closest("form[data-action]");
      if (!form) { return; }
      event.preventDefault();
      submit(form);
    });
    document.addEventListener("input", function (event) {
      var form = event.target.closest("form[data-action]");
      if (form) { delete form.dataset.key; }  // other values: another submission
    });
    follow("/play/stream", "play", function (update) {
      fill(update.sections);
      body.setAttribute("data-entry", String(update.entry));
    });
  } else {
    document.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-decide]");
      if (!button) { return; }
      var card = button.closest("[data-pending]");
      button.disabled = true;
      post("/gm/pending/" + encodeURIComponent(card.getAttribute("data-pending")) + "/" +
           button.getAttribute("data-decide"), {}).then(function (result) {
        say(status, result.ok ? (result.answer.said || result.answer.state) : result.answer.error, !result.ok);
      });
    });
    follow("/gm/stream", "waiting", function (update) {
      document.getElementById("waiting").innerHTML = update.html;
    });
  }
})();
