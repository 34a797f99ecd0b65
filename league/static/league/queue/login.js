/* A login that expired: the server answers the page's requests with a 401, and
   the password is asked for here, in place; then the same request goes again. */
import {W, base, csrf, el, main, q, user} from "./store.js";

export function login() {
  if (q.loggingIn) return q.loggingIn;
  q.loggingIn = new Promise(function (resolve) {
    var box = el("form", "login-again notice");
    box.setAttribute("role", "alert");
    box.appendChild(el("p", "", W.t("login_text", {user: user})));
    var label = el("label", "", W.t("password") + " ");
    var input = el("input");
    input.type = "password";
    input.name = "password";
    input.autocomplete = "current-password";
    input.id = "login-again-password";
    label.appendChild(input);
    box.appendChild(label);
    var go = el("button", "primary", W.t("log_in_again"));
    go.type = "submit";
    box.appendChild(go);
    var said = el("p", "errorlist");
    box.appendChild(said);
    box.addEventListener("submit", function (e) {
      e.preventDefault();
      var body = new FormData();
      body.set("username", user);
      body.set("password", input.value);
      body.set("csrfmiddlewaretoken", csrf());
      fetch(base + "session/", {method: "POST", body: body, credentials: "same-origin"})
        .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
        .then(function (a) {
          if (!a.ok) { said.textContent = a.j.error ? a.j.error.message : W.t("not_logged_in"); return; }
          document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (i) { i.value = a.j.csrf; });
          box.remove();
          var done = q.loggingIn;
          q.loggingIn = null;
          resolve();
          return done;
        })
        .catch(function () { said.textContent = W.t("no_answer"); });
    });
    (main || document.body).insertBefore(box, (main || document.body).firstChild);
    input.focus();
  });
  return q.loggingIn;
}
