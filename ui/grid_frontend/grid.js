"use strict";
// The editable grid behind ui/grid.py (see index.html for why it exists). The state is the drawn rows,
// the user's values per row, the rows added and the rows deleted; the value sent to Streamlit is the
// cumulative edits against the drawn rows, as st.data_editor reports them.
(() => {
  const post = (type, fields) => window.parent.postMessage({ isStreamlitMessage: true, type, ...fields }, "*");
  const head = document.getElementById("head");
  const body = document.getElementById("body");
  let columns = null; // [{name, label, kind, options, default, disabled, help, width_px}]
  let rows = []; // [{origin: drawn row index, or null for a row added here; values: [...]; deleted}]
  let drawn = [];
  let lastSent = null;

  // --- values --------------------------------------------------------------------------------------

  const isEmpty = (v) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
  const same = (a, b) => (isEmpty(a) && isEmpty(b)) || JSON.stringify(a) === JSON.stringify(b);

  function edits() {
    const edited = {};
    const added = [];
    const deleted = [];
    for (const row of rows) {
      if (row.origin === null) {
        if (row.deleted) continue;
        const cells = {};
        columns.forEach((c, j) => { if (!isEmpty(row.values[j])) cells[c.name] = row.values[j]; });
        added.push(cells);
      } else if (row.deleted) {
        deleted.push(row.origin);
      } else {
        const changes = {};
        columns.forEach((c, j) => {
          if (!same(row.values[j], drawn[row.origin][j])) changes[c.name] = isEmpty(row.values[j]) ? null : row.values[j];
        });
        if (Object.keys(changes).length) edited[row.origin] = changes;
      }
    }
    return { edited_rows: edited, added_rows: added, deleted_rows: deleted };
  }

  // Sent at once on every commit (no debounce): the whole state each time, so a send that a rerun
  // interrupts is superseded by the next one, never half-applied.
  function send() {
    const value = edits();
    const text = JSON.stringify(value);
    if (text === lastSent) return;
    lastSent = text;
    post("streamlit:setComponentValue", { value, dataType: "json" });
  }

  function parse(column, control) {
    if (column.kind === "checkbox") return control.checked;
    if (column.kind === "select") return control.value === "" ? null : control.value;
    if (column.kind === "multiselect") {
      const names = control.value.split(",").map((s) => s.trim()).filter((s) => s !== "");
      return names.length ? names : null;
    }
    return control.value === "" ? null : control.value;
  }

  const shown = (v) => (isEmpty(v) ? "" : Array.isArray(v) ? v.join(", ") : String(v));

  // --- drawing -------------------------------------------------------------------------------------

  function drawHead() {
    head.replaceChildren();
    for (const column of columns) {
      const th = document.createElement("th");
      th.textContent = column.label;
      if (column.width_px) th.style.minWidth = `${column.width_px}px`;
      const hint = [column.help, column.kind === "multiselect" && column.options.length
        ? `One or more of: ${column.options.join(", ")} (separate with commas).` : ""].filter(Boolean).join(" ");
      if (hint) { th.title = hint; th.classList.add("help"); }
      head.appendChild(th);
    }
    const tools = document.createElement("th");
    tools.setAttribute("aria-label", "Row actions");
    head.appendChild(tools);
  }

  // text wider than its cell shows whole on hover (a title is text, never markup); kept up to date on
  // commit too, since the pointer may already be over the cell that is typed into
  function fitTitle(el) {
    if (el.type === "text") el.title = el.scrollWidth > el.clientWidth ? el.value : "";
  }

  function control(column, value, label) {
    let el;
    if (column.kind === "checkbox") {
      el = document.createElement("input");
      el.type = "checkbox";
      el.checked = value === true;
      el.disabled = column.disabled;
      el.addEventListener("change", () => commit(el));
    } else if (column.kind === "select") {
      el = document.createElement("select");
      el.className = "cell";
      setOptions(el, column, value);
      el.disabled = column.disabled;
      el.addEventListener("change", () => commit(el));
    } else {
      el = document.createElement("input");
      el.type = "text";
      el.className = "cell";
      el.value = shown(value);
      el.readOnly = column.disabled;
      el.dataset.mode = "nav";
      el.spellcheck = false;
      el.autocomplete = "off";
      el.addEventListener("dblclick", () => { if (!el.readOnly && el.dataset.mode === "nav") startEdit(el, false); });
      el.addEventListener("input", () => { if (el.dataset.mode === "nav") startEdit(el, false); });
      el.addEventListener("focusout", () => { if (el.dataset.mode === "edit") { stopEdit(el); commit(el); } });
      el.addEventListener("mouseenter", () => fitTitle(el));
    }
    el.setAttribute("aria-label", label);
    return el;
  }

  function setOptions(el, column, value) {
    // a value the options do not list (a file typed by hand) is shown as it is, never changed silently
    const options = [...column.options];
    if (!isEmpty(value) && !options.includes(value)) options.push(value);
    if (column.default === null || isEmpty(value)) options.unshift("");
    el.replaceChildren();
    for (const option of options) {
      const o = document.createElement("option");
      o.value = option;
      o.textContent = option === "" ? "—" : option;
      el.appendChild(o);
    }
    el.value = isEmpty(value) ? "" : value;
  }

  function drawBody(focus) {
    body.replaceChildren();
    const visible = rows.filter((r) => !r.deleted);
    visible.forEach((row, r) => {
      const tr = document.createElement("tr");
      columns.forEach((column, j) => {
        const td = document.createElement("td");
        if (column.kind === "checkbox") td.className = "check";
        const el = control(column, row.values[j], `${column.label}, row ${r + 1}`);
        el.dataset.row = String(r);
        el.dataset.col = String(j);
        td.appendChild(el);
        tr.appendChild(td);
      });
      const tools = document.createElement("td");
      tools.className = "tools";
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "delete";
      remove.tabIndex = -1;
      remove.textContent = "×";
      remove.title = "Delete this row";
      remove.setAttribute("aria-label", `Delete row ${r + 1}`);
      remove.addEventListener("click", () => deleteRow(row));
      tools.appendChild(remove);
      tr.appendChild(tools);
      body.appendChild(tr);
    });
    if (!visible.length) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = columns.length + 1;
      td.className = "empty";
      td.textContent = "No rows yet: add one below.";
      tr.appendChild(td);
      body.appendChild(tr);
    }
    if (focus) focusCell(focus[0], focus[1]);
    resize();
  }

  const visibleRows = () => rows.filter((r) => !r.deleted);
  const cellAt = (r, c) => body.querySelector(`[data-row="${r}"][data-col="${c}"]`);

  function focusCell(r, c) {
    const el = cellAt(r, c);
    if (!el) return false;
    el.focus();
    if (el.type === "text") el.setSelectionRange(el.value.length, el.value.length);
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
    return true;
  }

  // --- editing -------------------------------------------------------------------------------------

  function startEdit(el, selectAll) {
    el.dataset.mode = "edit";
    el.closest("td").classList.add("editing");
    if (selectAll) el.select();
    else el.setSelectionRange(el.value.length, el.value.length);
  }

  function stopEdit(el) {
    el.dataset.mode = "nav";
    el.closest("td").classList.remove("editing");
  }

  function commit(el) {
    const row = visibleRows()[Number(el.dataset.row)];
    const j = Number(el.dataset.col);
    if (!row) return;
    row.values[j] = parse(columns[j], el);
    fitTitle(el);
    send();
  }

  function deleteRow(row) {
    if (row.origin === null) rows = rows.filter((r) => r !== row);
    else row.deleted = true;
    drawBody(null);
    send();
  }

  function addRow() {
    rows.push({ origin: null, values: columns.map((c) => (c.default === undefined ? null : c.default)), deleted: false });
    drawBody([visibleRows().length - 1, 0]);
    send();
  }

  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  // Everything happens inside the key's own handler (focus moves before the next key is dispatched).
  function onKeyDown(event) {
    const el = event.target;
    if (!el.dataset || el.dataset.row === undefined) return;
    const r = Number(el.dataset.row);
    const c = Number(el.dataset.col);
    const text = el.type === "text";
    const command = event.ctrlKey || event.metaKey;
    if (text && el.dataset.mode === "edit") {
      if (event.key === "Enter") {
        event.preventDefault();
        stopEdit(el);
        commit(el);
        focusCell(r + 1, c);
      } else if (event.key === "Escape") {
        event.preventDefault();
        el.value = el.dataset.before ?? el.value;
        stopEdit(el);
      } else if (event.key === "Tab") {
        stopEdit(el);
        commit(el);
      }
      return;
    }
    if (MOVES[event.key] && !(event.altKey && el.tagName === "SELECT")) {
      event.preventDefault();
      focusCell(r + MOVES[event.key][0], c + MOVES[event.key][1]);
      return;
    }
    if (!text) {
      if (event.key === "Enter" && el.type === "checkbox" && !el.disabled) {
        event.preventDefault();
        el.click();
      }
      return;
    }
    if (el.readOnly) return;
    if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      el.dataset.before = el.value;
      startEdit(el, false);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      el.value = "";
      commit(el);
    } else if ((event.key.length === 1 && !command && !event.altKey) || (command && event.key.toLowerCase() === "v")) {
      // typing on a selected cell replaces its content, as in a spreadsheet; the key itself is inserted
      // by the browser into the selection made here
      el.dataset.before = el.value;
      startEdit(el, true);
    }
  }

  // --- Streamlit's component protocol ------------------------------------------------------------

  function resize() {
    post("streamlit:setFrameHeight", { height: Math.ceil(document.documentElement.getBoundingClientRect().height) + 2 });
  }

  function theme(t) {
    if (!t) return;
    const root = document.documentElement.style;
    if (t.textColor) root.setProperty("--text", t.textColor);
    if (t.backgroundColor) root.setProperty("--bg", t.backgroundColor);
    if (t.secondaryBackgroundColor) root.setProperty("--head", t.secondaryBackgroundColor);
    if (t.primaryColor) root.setProperty("--primary", t.primaryColor);
    if (t.font) root.setProperty("--font", t.font);
  }

  // The first render draws the grid; later renders (every rerun) never touch what is typed: the grid's
  // key changes when the document is changed elsewhere, and that gives a new grid.
  function init(args) {
    columns = args.columns;
    drawn = args.rows;
    rows = drawn.map((values, i) => ({ origin: i, values: [...values], deleted: false }));
    const held = args.edits || {};
    for (const [position, changes] of Object.entries(held.edited_rows || {})) {
      const row = rows[Number(position)];
      if (row) columns.forEach((c, j) => { if (c.name in changes) row.values[j] = changes[c.name]; });
    }
    for (const position of held.deleted_rows || []) if (rows[Number(position)]) rows[Number(position)].deleted = true;
    for (const added of held.added_rows || []) {
      rows.push({ origin: null, values: columns.map((c) => (c.name in added ? added[c.name] : null)), deleted: false });
    }
    lastSent = JSON.stringify(edits());
    drawHead();
    drawBody(null);
  }

  // A select's options may come from elsewhere on the page (a transaction's member numbers, a pattern's
  // inputs): later renders set them in place, and nothing else, so no cell is redrawn and nothing typed moves.
  function followOptions(args) {
    if (!args || !Array.isArray(args.columns) || args.columns.length !== columns.length) return;
    args.columns.forEach((column, j) => {
      const now = columns[j];
      if (column.name !== now.name || now.kind !== "select" || column.kind !== "select") return;
      if (JSON.stringify(column.options) === JSON.stringify(now.options)) return;
      columns[j] = { ...now, options: column.options };
      body.querySelectorAll(`select[data-col="${j}"]`).forEach((el) => setOptions(el, columns[j], parse(columns[j], el)));
    });
  }

  window.addEventListener("message", (event) => {
    if (!event.data || event.data.type !== "streamlit:render") return;
    theme(event.data.theme);
    if (columns === null) init(event.data.args);
    else followOptions(event.data.args);
    resize();
  });
  body.addEventListener("keydown", onKeyDown);
  // the frame losing focus (a click elsewhere on the page) commits what is being typed
  window.addEventListener("blur", () => {
    const el = document.activeElement;
    if (el && el.dataset && el.dataset.mode === "edit") { stopEdit(el); commit(el); }
  });
  document.getElementById("add").addEventListener("click", addRow);
  new ResizeObserver(resize).observe(document.body);
  post("streamlit:componentReady", { apiVersion: 1 });
})();
