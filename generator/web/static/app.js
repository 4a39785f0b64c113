// The live parts of the page: previews that follow the form, the coach's dice, the playtest
// watcher, the class list kept in this browser when asked. Plain JS, no build step.
"use strict";

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

function showErrors(form, errors, general) {
  form.querySelectorAll("[data-error-for]").forEach((el) => {
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

// One request at a time per form: a newer change aborts the older request.
function livePoster(form, url, onOk, status) {
  let controller = null;
  return async () => {
    if (controller) controller.abort();
    controller = new AbortController();
    setStatus(status, "updating");
    form.classList.add("updating");
    try {
      const response = await fetch(url(), { method: "POST", body: new FormData(form), signal: controller.signal });
      const data = await response.json();
      if (response.status === 503) { setStatus(status, "busy"); return; }
      if (!data.ok) { showErrors(form, data.errors || {}, data.general); setStatus(status, "failed"); return; }
      showErrors(form, {}, []);
      onOk(data);
    } catch (err) {
      if (err.name !== "AbortError") setStatus(status, "failed");
    } finally {
      form.classList.remove("updating");
    }
  };
}

function showPreview(data, status) {
  const pages = document.getElementById("preview-pages");
  pages.replaceChildren(...data.pages.map((src, i) => {
    const img = document.createElement("img");
    img.src = src;
    img.alt = String(i + 1);
    return img;
  }));
  pages.dataset.version = String((Number(pages.dataset.version) || 0) + 1);
  document.getElementById("figures").innerHTML = data.figures_html || "";
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

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return String((a[0] % 999999) + 1);
}

function setupProduct(form) {
  const status = document.getElementById("preview-status");
  const seed = form.querySelector("[name=seed]");
  const post = livePoster(form, () => form.dataset.preview, (data) => {
    showPreview(data, status);
    // an empty seed field: the build drew one; show it, so "same again" can find it
    if (seed && !seed.value.trim() && data.seed) seed.value = String(data.seed);
  }, status);
  const refresh = debounce(post, 250);
  form.addEventListener("input", (e) => { if (e.target.type !== "file") refresh(); });
  form.addEventListener("change", refresh);
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
  post();
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
  form.querySelectorAll(".refresh").forEach((b) => { b.hidden = true; });
  form.querySelectorAll(".die").forEach((die) => {
    die.addEventListener("click", () => {
      const input = form.querySelector(`[name=die${die.dataset.die}]`);
      const next = (Number(input.value) % 6) + 1;
      input.value = String(next);
      die.textContent = String(next);
      refresh();
    });
  });
  form.addEventListener("change", (e) => {
    if (e.target.dataset.reload) form.submit();
    else refresh();
  });
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
  }, status);
  const only = () => form.querySelectorAll("[data-only]").forEach((el) => {
    el.hidden = el.dataset.only !== form.elements.product.value;
  });
  form.addEventListener("change", () => { only(); post(); });
  form.addEventListener("input", debounce(post, 250));
  form.addEventListener("submit", (e) => e.preventDefault());
  only();
  post();
  let stamp = root.dataset.stamp;
  setInterval(async () => {
    try {
      const state = await (await fetch(root.dataset.state)).json();
      if (state.stamp === stamp) return;
      stamp = state.stamp;
      const report = await (await fetch(root.dataset.report)).json();
      document.getElementById("problems").innerHTML = report.html;
      root.dataset.stamp = stamp;
      post();
    } catch (err) { /* the server restarts: try again next time */ }
  }, 500);
}

document.addEventListener("DOMContentLoaded", () => {
  const product = document.getElementById("product-form");
  if (product) setupProduct(product);
  const coach = document.getElementById("coach-form");
  if (coach) setupCoach(coach);
  const playtest = document.getElementById("playtest");
  if (playtest) setupPlaytest(playtest);
});
