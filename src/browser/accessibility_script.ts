/**
 * The scripts that run inside the page. They are JavaScript text, not functions of this module:
 * the bundler may rename or wrap a function, and the page must get exactly this code.
 *
 * The tree is read in one pass over the DOM and comes back as one JSON string (Playwright's
 * own serialisation of a large array costs ten times more). Every element with a role keeps its
 * reference (`e12`) while it stays in the document: the references live in a WeakMap on the
 * page's window, so a later snapshot gives the same element the same reference, and an action
 * finds the element again by it.
 */
const PAGE_STATE = `(window.__latheRefs ??= { next: 1, ids: new WeakMap(), elements: new Map() })`;

/** Evaluates to a JSON string: an array of [depth, line]. */
export const ACCESSIBILITY_TREE_SCRIPT = `(() => {
  const state = ${PAGE_STATE};
  const refOf = (element) => {
    let id = state.ids.get(element);
    if (!id) {
      id = 'e' + state.next++;
      state.ids.set(element, id);
      state.elements.set(id, new WeakRef(element));
    }
    return id;
  };
  const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'svg', 'SVG']);
  const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox' };
  const TAG_ROLES = { BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', H1: 'heading', H2: 'heading',
    H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', NAV: 'navigation', MAIN: 'main', HEADER: 'banner',
    FOOTER: 'contentinfo', ASIDE: 'complementary', FORM: 'form', UL: 'list', OL: 'list', LI: 'listitem',
    TABLE: 'table', TR: 'row', TD: 'cell', TH: 'columnheader', P: 'paragraph', DIALOG: 'dialog',
    SUMMARY: 'button', OPTION: 'option', IMG: 'img', IFRAME: 'iframe' };
  // Roles named by their text: their children are not listed again (unless they hold controls).
  const NAMED_BY_CONTENT = new Set(['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'checkbox',
    'radio', 'cell', 'columnheader', 'paragraph', 'listitem']);
  const CONTROLS = 'a[href],button,input,select,textarea,summary,[role],[contenteditable]';
  const clip = (text, max = 100) => {
    const flat = text.replace(/\\s+/g, ' ').trim();
    return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
  };
  const roleOf = (element) => {
    const explicit = element.getAttribute('role');
    if (explicit) return explicit.split(' ')[0];
    const tag = element.tagName;
    if (tag === 'A') return element.hasAttribute('href') ? 'link' : undefined;
    if (tag === 'INPUT') return element.type === 'hidden' ? undefined : (INPUT_ROLES[element.type] ?? 'textbox');
    return TAG_ROLES[tag];
  };
  const isField = (element) =>
    element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;
  const nameOf = (element, role) => {
    const label = element.getAttribute('aria-label');
    if (label) return clip(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) {
      const text = labelledBy.split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      if (text.trim()) return clip(text);
    }
    if (isField(element)) {
      const labels = element.labels ? [...element.labels].map((l) => l.textContent ?? '').join(' ') : '';
      if (labels.trim()) return clip(labels);
      if (element instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(element.type))
        return clip(element.value || element.type);
      return clip(element.getAttribute('placeholder') ?? element.getAttribute('title') ?? element.name ?? '');
    }
    if (element instanceof HTMLImageElement) return clip(element.alt || element.title);
    if (NAMED_BY_CONTENT.has(role)) return clip(element.textContent ?? '');
    return clip(element.getAttribute('title') ?? '');
  };
  const stateOf = (element, role) => {
    const parts = [];
    if (role === 'heading') parts.push('level=' + (element.tagName.match(/^H(\\d)$/)?.[1] ?? element.getAttribute('aria-level') ?? '2'));
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
      if (element.checked) parts.push('checked');
    } else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      if (element.value) parts.push('value=' + JSON.stringify(element.type === 'password' ? '•••' : clip(element.value, 60)));
    } else if (element instanceof HTMLSelectElement) {
      parts.push('value=' + JSON.stringify(clip(element.selectedOptions[0]?.textContent ?? '', 60)));
    }
    if (element.disabled || element.getAttribute('aria-disabled') === 'true') parts.push('disabled');
    const expanded = element.getAttribute('aria-expanded');
    if (expanded) parts.push('expanded=' + expanded);
    if (element === document.activeElement && element !== document.body) parts.push('focused');
    return parts.length > 0 ? ' [' + parts.join(', ') + ']' : '';
  };
  const hidden = (element) =>
    element.getAttribute('aria-hidden') === 'true' || element.hidden || !element.checkVisibility({ visibilityProperty: true });
  const lines = [];
  const walk = (node, depth) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) {
        const text = clip(child.textContent ?? '');
        if (text) lines.push([depth, 'text: ' + text]);
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE || SKIPPED.has(child.tagName) || hidden(child)) continue;
      const role = roleOf(child);
      if (!role || role === 'none' || role === 'presentation' || role === 'generic') {
        walk(child.shadowRoot ?? child, depth);
        continue;
      }
      const name = nameOf(child, role);
      let line = role + (name ? ' ' + JSON.stringify(name) : '') + stateOf(child, role) + ' [' + refOf(child) + ']';
      if (role === 'link') {
        const href = child.getAttribute('href');
        if (href && !href.startsWith('javascript:')) line += ' -> ' + clip(href, 80);
      }
      lines.push([depth, line]);
      if (NAMED_BY_CONTENT.has(role) && !child.querySelector(CONTROLS)) continue;
      if (role === 'combobox' || role === 'iframe' || role === 'img' || role === 'textbox') continue;
      walk(child.shadowRoot ?? child, depth + 1);
    }
  };
  if (document.body) walk(document.body, 0);
  return JSON.stringify(lines);
})()`;

/**
 * A function of a reference: the element it names, or a string saying why there is none. It is
 * text for the same reason as the tree script; the caller applies it to the quoted reference.
 */
export const ELEMENT_BY_REF_SCRIPT = `(ref) => {
  const state = window.__latheRefs;
  if (!state) return 'no snapshot was taken of this page yet';
  const element = state.elements.get(ref)?.deref();
  if (!element) return 'unknown';
  if (!element.isConnected) return 'gone';
  return element;
}`;
