// The live parts of the page: previews that follow the form, the coach's dice, the playtest
// watcher, the class list kept in this browser when asked. Plain JS, no build step.
"use strict";

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

function showErrors(form, errors, general) {
  // a page's fields may sit outside its form element (the coach's boxes: form="…")
  (form.closest(".product") || form).querySelectorAll("[data-error-for]").forEach((el) => {
    const key = el.dataset.errorFor;
    const text = key ? (errors[key] || "") : (general || []).join(" ");
    el.textContent = text;
    el.hidden = !text;
  });
}

function setStatus(status, key, extra) {
  if (!status) return;
  status.textContent = (status.dataset[key] || "") + (extra ? " " + extra : "");
}

// One request at a time per form: a newer change aborts the older request (the server then
// drops or stops its build). `extra` adds fields to the form's own.
function livePoster(form, url, onOk, status, extra) {
  let controller = null;
  return async () => {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = controller;
    setStatus(status, "updating");
    form.classList.add("updating");
    try {
      const body = new FormData(form);
      if (extra) extra(body);
      const response = await fetch(url(), { method: "POST", body, signal: mine.signal });
      const data = await response.json();
      if (controller !== mine) return;  // a newer request was sent meanwhile: its answer counts
      // 503: every worker busy, or this build took too long: the server's own words
      if (response.status === 503) { status.textContent = data.message || status.dataset.busy; return; }
      if (!data.ok) { showErrors(form, data.errors || {}, data.general); setStatus(status, "failed"); return; }
      showErrors(form, {}, []);
      onOk(data);
    } catch (err) {
      if (err.name !== "AbortError") setStatus(status, "failed");
    } finally {
      if (controller === mine) form.classList.remove("updating");
    }
  };
}

// Typing waits for a pause; a menu, a tick box or a button asks at once.
const TYPING_PAUSE_MS = 400;

function pageFigure(page, cls) {
  const figure = document.createElement("figure");
  figure.className = cls;
  figure.dataset.number = String(page.number);
  const img = document.createElement("img");
  img.src = page.src;
  img.alt = `${document.getElementById("preview-pages").dataset.alt || ""} ${page.caption}`.trim();
  const caption = document.createElement("figcaption");
  caption.textContent = page.caption;
  figure.append(img, caption);
  return figure;
}

function showPreview(data, status) {
  const pages = document.getElementById("preview-pages");
  if (!data.view || (data.pages && data.pages.length)) {
    pages.replaceChildren(...data.pages.map((p) => pageFigure(p, "page")));
    pages.dataset.version = String((Number(pages.dataset.version) || 0) + 1);
  }
  if (data.view) showPageView(data.view);
  setPager(data.count || data.page_count, data.view ? data.view.number : null);
  if (data.figures_html !== undefined) document.getElementById("figures").innerHTML = data.figures_html || "";
  const warnings = document.getElementById("warnings");
  warnings.replaceChildren(...(data.warnings || []).map((w) => {
    const li = document.createElement("li");
    li.textContent = w;
    return li;
  }));
  const command = document.getElementById("command");
  if (command) command.textContent = data.command || "";
  setStatus(status, "pages", String(data.page_count));
}

// The page the pager shows, built on demand ("Seite 5 von 54").
function showPageView(view) {
  const box = document.getElementById("page-view");
  if (!box) return;
  if (!view) { box.hidden = true; box.replaceChildren(); return; }
  const figure = pageFigure(view, "page-view");
  box.replaceChildren(...figure.childNodes);
  box.dataset.number = String(view.number);
  box.hidden = false;
}

// A number the teacher is typing into the page field (not asked for yet) stays as it is:
// an answer that arrives meanwhile (the page shown renewed after a change of the form)
// moves the buttons, never the field, so Enter asks for the page typed.
function setPager(count, at) {
  const pager = document.getElementById("pager");
  if (!pager || !count) return;
  pager.hidden = false;
  pager.dataset.count = String(count);
  const input = pager.querySelector("[name=preview_page]");
  let page = Number(at || input.value) || 1;
  page = Math.min(Math.max(page, 1), count);
  if (!pager.dataset.typed) input.value = String(page);
  document.getElementById("pager-of").textContent = (pager.dataset.of || "").replace("{pages}", String(count));
  pager.querySelectorAll("[data-step]").forEach((b) => {
    const next = page + Number(b.dataset.step);
    b.value = String(Math.min(Math.max(next, 1), count));
    b.disabled = next < 1 || next > count;
  });
}

// Returns what renews the page shown, if one is (after the form changed), or null.
function setupPager(form, url, status) {
  const pager = document.getElementById("pager");
  if (!pager) return null;
  const input = pager.querySelector("[name=preview_page]");
  const fetchPage = livePoster(form, url, (data) => {
    showPageView(data.view);
    setPager(data.page_count, data.view ? data.view.number : null);
    setStatus(status, "pages", String(data.page_count));
  }, status, (body) => {
    body.delete("preview_go");
    body.set("preview_page", input.value);
    body.set("preview_only", "1");
    delete pager.dataset.typed;  // asked for: the answer may set the field again
  });
  pager.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", (e) => {
    e.preventDefault();
    input.value = b.value;
    fetchPage();
  }));
  input.addEventListener("change", (e) => { e.stopPropagation(); fetchPage(); });
  input.addEventListener("input", (e) => { e.stopPropagation(); pager.dataset.typed = "1"; });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); fetchPage(); }
  });
  document.getElementById("preview-pages").addEventListener("click", (e) => {
    const figure = e.target.closest("figure[data-number]");
    if (!figure) return;
    input.value = figure.dataset.number;
    fetchPage();
  });
  return () => { if (!document.getElementById("page-view").hidden) fetchPage(); };
}

// An overview asks for no single page: the pager's own requests do.
function overviewOnly(body) {
  body.delete("preview_page");
  body.delete("preview_go");
}

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return String((a[0] % 999999) + 1);
}

function setupProduct(form) {
  const status = document.getElementById("preview-status");
  const seed = form.querySelector("[name=seed]");
  let renewPage = null;
  const post = livePoster(form, () => form.dataset.preview, (data) => {
    showPreview(data, status);
    if (renewPage) renewPage();
    // an empty seed field: the build drew one; show it, so "same again" can find it
    if (seed && !seed.value.trim() && data.seed) seed.value = String(data.seed);
  }, status, overviewOnly);
  const refresh = debounce(post, TYPING_PAUSE_MS);
  form.addEventListener("input", (e) => {
    if (e.target.type !== "file" && e.target.form === form) refresh();
  });
  form.addEventListener("change", (e) => {
    if (e.target.name === "preview_page") return;
    // typed text was already asked for by its pause; a menu or a box asks at once
    if (e.target.tagName === "SELECT" || e.target.type === "checkbox" || e.target.type === "file") post();
    else refresh();
  });
  renewPage = setupPager(form, () => form.dataset.preview, status);
  form.querySelectorAll(".refresh").forEach((b) => { b.hidden = true; });
  const again = form.querySelector("[data-action=same-again]");
  const previous = [];
  const reseed = form.querySelector("[data-action=reseed]");
  if (reseed && seed) {
    reseed.addEventListener("click", (e) => {
      e.preventDefault();
      previous.push(seed.value);
      seed.value = randomSeed();
      again.disabled = false;
      post();
    });
    again.addEventListener("click", () => {
      if (!previous.length) return;
      seed.value = previous.pop();
      again.disabled = previous.length === 0;
      post();
    });
  }
  setupRoster(form, refresh);
  setupState(form);
  setupUpload(form, refresh);
  setupKeyLabels(form);
  setupLevels(form);
  setupSubmit(form, post);
  post();
}

// --- nothing typed is lost: settings in the address, names in this browser only ----------

function formSettings(form) {
  // every field but the names, as the address carries it (defaults of that language left out)
  const privateNames = new Set((form.dataset.private || "").split(" "));
  const keys = JSON.parse(form.dataset.urlKeys || "{}");
  const all = JSON.parse(form.dataset.defaults || "{}");
  return (lang) => {
    const defaults = all[lang] || {};
    const params = new URLSearchParams([["lang", lang]]);
    for (const name of Object.keys(defaults)) {
      if (privateNames.has(name)) continue;
      const el = form.elements[name];
      if (!el || el instanceof RadioNodeList) continue;
      let value = el.value;
      let fallback = defaults[name];
      if (el.type === "checkbox") {
        value = el.checked ? "1" : "0";
        fallback = ["", "0", "False"].includes(fallback) ? "0" : "1";
      }
      if (value !== fallback || name === "seed") params.append(keys[name] || name, value);
    }
    return params;
  };
}

function namesKey(form) { return `dicesheets.names.${form.dataset.page}`; }

function namesOf(form) {
  const kept = {};
  const privateNames = (form.dataset.private || "").split(" ");
  for (const name of [...privateNames, "roster_text", "roster_upload", "roster_upload_name"]) {
    const el = form.elements[name];
    if (el && !(el instanceof RadioNodeList) && el.type !== "file") kept[name] = el.value;
  }
  return kept;
}

function setupState(form) {
  const settings = formSettings(form);
  const path = window.location.pathname;
  const link = document.getElementById("setup-link");
  // names come back after a reload, Back or the language switch (this tab only; the
  // server and the address never see them)
  const key = namesKey(form);
  let stored = null;
  try { stored = JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (err) { stored = null; }
  if (stored) {
    for (const [name, value] of Object.entries(stored)) {
      const el = form.elements[name];
      if (el && !(el instanceof RadioNodeList) && !el.value && value) el.value = value;
    }
  }
  const save = () => {
    const own = settings(form.dataset.lang);
    const url = `${path}?${own}`;
    window.history.replaceState(null, "", url);
    if (link) link.href = url;
    document.querySelectorAll("[data-lang-link]").forEach((a) => {
      a.href = `${path}?${settings(a.dataset.langLink)}`;
    });
    document.querySelectorAll("[data-lang-switch]").forEach((b) => {
      b.dataset.href = `${path}?${settings(b.dataset.langSwitch)}`;
    });
    try { window.sessionStorage.setItem(key, JSON.stringify(namesOf(form))); } catch (err) { /* full */ }
  };
  langSwitch(save);
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("dicesheets:changed", save);
  window.addEventListener("pagehide", save);
  save();
}

// The language switch is a submit button of the form (without JavaScript it posts every
// field); here it goes to the address of the settings instead, the names kept in this tab.
function langSwitch(save) {
  document.querySelectorAll("[data-lang-switch]").forEach((b) => {
    b.addEventListener("click", (e) => {
      e.preventDefault();
      save();
      window.location.href = b.dataset.href;
    });
  });
}

// An uploaded class list is read here and kept in the page's hidden field, so it survives
// a reload and every later request carries it (the server never stores it).
function setupUpload(form, refresh) {
  const file = form.elements.roster_file;
  const carried = form.elements.roster_upload;
  if (!file || !carried) return;
  const name = form.elements.roster_upload_name;
  const note = form.querySelector("[data-carried]");
  const drop = form.elements.roster_upload_drop;
  const show = () => {
    note.hidden = !carried.value;
    note.querySelector("[data-carried-name]").textContent = name.value;
  };
  file.addEventListener("change", () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const reader = new FileReader();
    reader.onload = () => {
      carried.value = String(reader.result).split(",", 2)[1] || "";
      name.value = chosen.name;
      file.value = "";
      if (drop) drop.checked = false;
      show();
      form.dispatchEvent(new Event("dicesheets:changed"));
      refresh();
    };
    reader.readAsDataURL(chosen);
  });
  if (drop) {
    drop.addEventListener("change", () => {
      if (!drop.checked) return;
      carried.value = "";
      name.value = "";
      drop.checked = false;
      show();
      form.dispatchEvent(new Event("dicesheets:changed"));
    });
  }
  show();
}

// A level is shown by its name and Klasse; the names are the chosen family's.
function setupLevels(form) {
  const level = form.elements.level;
  const family = form.elements.family;
  if (!level || !family || level.tagName !== "SELECT" || !level.dataset.levels) return;
  const all = JSON.parse(level.dataset.levels);
  family.addEventListener("change", () => {
    const labels = all[family.value] || {};
    for (const option of level.options) {
      if (labels[option.value]) option.textContent = labels[option.value];
    }
  });
}

// The download buttons say what they give: with the key box unticked there is no key.
function setupKeyLabels(form) {
  const key = form.elements.key;
  if (!key || key.type !== "checkbox") return;
  const label = () => {
    form.querySelectorAll("button.download").forEach((b) => {
      b.textContent = key.checked ? b.dataset.labelKey : b.dataset.labelNokey;
      if (b.dataset.part === "sheets") b.hidden = !key.checked;
    });
  };
  key.addEventListener("change", label);
  label();
}

// Enter and "Vorschau zeigen" show the preview; a download is fetched, so an error is shown
// beside its field and the page (with the class list) stays as it is.
function setupSubmit(form, post) {
  const status = document.getElementById("preview-status");
  const note = form.querySelector("[data-download-error]");
  form.addEventListener("submit", async (e) => {
    const button = e.submitter;
    if (button && button.dataset.action === "reseed") return;  // its own handler
    e.preventDefault();
    if (!button || !button.classList.contains("download")) { post(); return; }
    const body = new FormData(form);
    body.set("part", button.value);
    if (note) note.hidden = true;
    button.disabled = true;
    try {
      const response = await fetch(button.formAction, { method: "POST", body, headers: { Accept: "application/json" } });
      const type = response.headers.get("content-type") || "";
      if (response.ok && type.startsWith("application/pdf")) {
        const blob = await response.blob();
        const disposition = response.headers.get("content-disposition") || "";
        const match = /filename="([^"]+)"/.exec(disposition);
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = match ? match[1] : "dicesheets.pdf";
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 60000);
        showErrors(form, {}, []);
        return;
      }
      const data = await response.json();
      if (response.status === 503) { setStatus(status, "busy"); if (note) { note.textContent = data.message || ""; note.hidden = false; } return; }
      showErrors(form, data.errors || {}, data.general);
      if (note) { note.textContent = note.dataset.pointer; note.hidden = false; }
      const first = Object.keys(data.errors || {})[0];
      const field = first && form.querySelector(`#f-${first}`);
      if (field) field.focus();
    } catch (err) {
      setStatus(status, "failed");
    } finally {
      button.disabled = false;
    }
  });
}

// The class list stays in this browser only when the teacher ticks the box.
function setupRoster(form, refresh) {
  const box = form.querySelector("[data-remember]");
  const text = form.querySelector("[name=roster_text]");
  if (!box || !text) return;
  const key = box.dataset.remember;
  const stored = window.localStorage.getItem(key);
  if (stored !== null) { text.value = stored; box.checked = true; }
  const save = () => {
    if (box.checked) window.localStorage.setItem(key, text.value);
    else window.localStorage.removeItem(key);
  };
  box.addEventListener("change", save);
  text.addEventListener("input", save);
}

function setupCoach(form) {
  const status = document.getElementById("coach-status");
  const post = livePoster(form, () => form.dataset.advise, (data) => {
    document.getElementById("advice").innerHTML = data.html;
    status.textContent = "";
  }, status);
  const refresh = debounce(post, 120);
  const root = form.closest(".product") || form;
  root.querySelectorAll(".refresh").forEach((b) => { b.hidden = true; });
  form.addEventListener("submit", (e) => { e.preventDefault(); post(); });
  const hint = form.querySelector("[data-dice-hint]");
  if (hint) hint.textContent = hint.dataset.diceHint;
  form.querySelectorAll(".die").forEach((die) => {
    // the script's dice are buttons; the typed faces (the page without it) become their values
    die.hidden = false;
    const face = form.querySelector(`[name=die${die.dataset.die}]`);
    face.type = "hidden";
    face.removeAttribute("aria-label");
    die.addEventListener("click", () => {
      const input = form.querySelector(`[name=die${die.dataset.die}]`);
      const next = (Number(input.value) % 6) + 1;
      input.value = String(next);
      die.textContent = String(next);
      if (die.dataset.label) die.setAttribute("aria-label", die.dataset.label.replace("{value}", String(next)));
      refresh();
    });
  });
  root.addEventListener("change", (e) => {
    if (e.target.dataset.reload) form.submit();
    else refresh();
  });
  setupCoachState(form, root);
}

// The coach holds no names: every field (dice, rolls left, boxes, rules) is in the address,
// so a reload, Back and the language switch find the position again.
function setupCoachState(form) {
  const path = window.location.pathname;
  const address = (lang) => {
    const params = new URLSearchParams([["lang", lang]]);
    for (const el of form.elements) {
      if (!el.name || el.name === "lang" || el.type === "submit" || el.type === "button") continue;
      if (el.type === "radio" && !el.checked) continue;
      if (el.value !== "") params.append(el.name, el.value);
    }
    return `${path}?${params}`;
  };
  const save = () => {
    window.history.replaceState(null, "", address(document.body.dataset.lang));
    document.querySelectorAll("[data-lang-switch]").forEach((b) => {
      b.dataset.href = address(b.dataset.langSwitch);
    });
  };
  const root = form.closest(".product") || form;
  root.addEventListener("change", save);
  root.addEventListener("click", (e) => { if (e.target.closest(".die")) save(); });
  window.addEventListener("pagehide", save);
  langSwitch(save);
  save();
}

function setupPlaytest(root) {
  const form = document.getElementById("playtest-form");
  const status = document.getElementById("preview-status");
  const lang = form.dataset.lang;
  const url = () => `${form.dataset.previewBase}${form.elements.product.value}?lang=${lang}`;
  const seed = form.elements.seed;
  const session = document.getElementById("preview-session");
  const post = livePoster(form, url, (data) => {
    showPreview(data, status);
    // one seed for the whole session: an emptied field keeps the seed the build drew first
    if (!seed.value.trim() && data.seed) seed.value = String(data.seed);
    session.textContent = `${session.dataset.label}: ${data.seed} · ${data.filename}`;
    session.hidden = false;
  }, status, overviewOnly);
  const only = () => form.querySelectorAll("[data-only]").forEach((el) => {
    el.hidden = el.dataset.only !== form.elements.product.value;
  });
  form.addEventListener("change", () => { only(); post(); });
  form.addEventListener("input", debounce(post, 250));
  form.addEventListener("submit", (e) => e.preventDefault());
  only();
  post();
  checkCatalog(root);
  let stamp = root.dataset.stamp;
  setInterval(async () => {
    try {
      const state = await (await fetch(root.dataset.state)).json();
      if (state.stamp === stamp) return;
      stamp = state.stamp;
      root.dataset.stamp = stamp;
      post();  // the preview first: it never waits for validate
      checkCatalog(root);
    } catch (err) { /* the server restarts: try again next time */ }
  }, 500);
}

// validate's findings, shown when they are ready; a newer check replaces an older one.
let catalogCheck = null;
async function checkCatalog(root) {
  const box = document.getElementById("problems");
  if (catalogCheck) catalogCheck.abort();
  const mine = new AbortController();
  catalogCheck = mine;
  box.setAttribute("aria-busy", "true");
  const status = box.querySelector(".summary, #problems-status");
  if (status) status.textContent = box.dataset.checking;
  try {
    const report = await (await fetch(root.dataset.report, { signal: mine.signal })).json();
    box.innerHTML = report.html;
  } catch (err) { /* aborted by a newer check, or the server restarts */ }
  finally { if (catalogCheck === mine) box.removeAttribute("aria-busy"); }
}

document.addEventListener("DOMContentLoaded", () => {
  const product = document.getElementById("product-form");
  if (product) setupProduct(product);
  const coach = document.getElementById("coach-form");
  if (coach) setupCoach(coach);
  const playtest = document.getElementById("playtest");
  if (playtest) setupPlaytest(playtest);
});
