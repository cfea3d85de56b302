/// The scripts ``AccessibilityAudit`` runs in the page. The static checks leave their helpers and the focusable
/// elements (with their unfocused styles) on `window.__toltAudit`, for the focus steps that follow each Tab press.
enum AccessibilityAuditScript {
    static let staticChecks = #"""
        const audit = {};
        window.__toltAudit = audit;
        const violations = [], unknownContrast = [];

        audit.describe = function (el) {
          if (!el || el === document || el === document.body || el === document.documentElement) {
            return el === document.body ? 'body' : 'document';
          }
          let s = el.tagName.toLowerCase();
          if (el.id) s += '#' + el.id;
          if (el.classList && el.classList.length) s += '.' + Array.from(el.classList).join('.');
          const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
          if (text) s += ' "' + text + '"';
          return s;
        };
        const add = (rule, el, detail) => violations.push({ rule, element: audit.describe(el), detail });

        function hidden(el) {
          for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
            if (e.hidden || e.getAttribute('aria-hidden') === 'true') return true;
            if (getComputedStyle(e).display === 'none') return true;
          }
          return getComputedStyle(el).visibility !== 'visible' || el.getClientRects().length === 0;
        }

        function ariaName(el) {
          const ids = el.getAttribute('aria-labelledby');
          if (ids) {
            const text = ids.split(/\s+/).map((id) => {
              const target = document.getElementById(id);
              return target ? target.textContent : '';
            }).join(' ').trim();
            if (text) return text;
          }
          return (el.getAttribute('aria-label') || '').trim();
        }

        // The text a name is computed from: text nodes, image alternatives, SVG titles; `skip` (a control inside
        // its own label) and hidden parts left out.
        function textName(node, skip) {
          if (node === skip) return '';
          if (node.nodeType === 3) return node.textContent;
          if (node.nodeType !== 1) return '';
          if (node.getAttribute('aria-hidden') === 'true') return '';
          const style = getComputedStyle(node);
          if (style.display === 'none' || style.visibility === 'hidden') return '';
          const own = ariaName(node);
          if (own) return own;
          const tag = node.tagName.toLowerCase();
          if (tag === 'img') return node.getAttribute('alt') || '';
          if (tag === 'svg') {
            const title = node.querySelector(':scope > title');
            return title ? title.textContent : '';
          }
          if (tag === 'input' || tag === 'select' || tag === 'textarea') return '';
          let text = '';
          for (const child of node.childNodes) text += ' ' + textName(child, skip);
          return text;
        }

        function controlName(el) {
          const named = ariaName(el);
          if (named) return named;
          if (el.id) {
            for (const label of document.querySelectorAll('label[for]')) {
              if (label.htmlFor === el.id) {
                const text = textName(label, el).trim();
                if (text) return text;
              }
            }
          }
          const wrapping = el.closest('label');
          return wrapping ? textName(wrapping, el).trim() : '';
        }

        const buttonInputs = ['submit', 'button', 'reset', 'image'];

        // Form controls: a label, wrapping or by `for`, or an ARIA name.
        for (const el of document.querySelectorAll('input, select, textarea')) {
          if (el.type === 'hidden' || buttonInputs.includes(el.type) || hidden(el)) continue;
          if (!controlName(el)) add('form-label', el, el.tagName.toLowerCase() + ' has no accessible name (label, aria-label, aria-labelledby)');
        }

        // Buttons and links: a name from their content, an ARIA name, or a title.
        for (const el of document.querySelectorAll('button, a[href], [role=button], [role=link], input')) {
          if (el.tagName === 'INPUT' && !buttonInputs.includes(el.type)) continue;
          if (hidden(el)) continue;
          let name = ariaName(el) || textName(el).trim() || (el.getAttribute('title') || '').trim();
          if (el.tagName === 'INPUT') {
            name = name || (el.type === 'image' ? el.getAttribute('alt') || '' : el.value || (el.type === 'button' ? '' : el.type));
          }
          if (!name.trim()) add('control-name', el, (el.tagName === 'A' ? 'link' : 'button') + ' has no accessible name');
        }

        // Images: an `alt` (empty for decoration); `role=img` and meaningful SVGs: a name or a <title>.
        for (const el of document.querySelectorAll('img, [role=img], svg')) {
          if (hidden(el)) continue;
          const tag = el.tagName.toLowerCase();
          if (tag === 'img') {
            if (!el.hasAttribute('alt')) add('image-alternative', el, 'img has no alt attribute (alt="" for decoration)');
            continue;
          }
          const role = el.getAttribute('role');
          if (role === 'presentation' || role === 'none') continue;
          if (tag === 'svg' && role !== 'img' && el.parentElement.closest('[role=img], a, button, svg, label')) continue;
          const title = tag === 'svg' ? el.querySelector(':scope > title') : null;
          if (!ariaName(el) && !(title && title.textContent.trim()) && !(el.getAttribute('title') || '').trim()) {
            add('image-alternative', el, tag + ' conveys meaning without a text alternative (aria-label, <title>)');
          }
        }

        // Contrast: each element with text of its own, its computed colour over the backgrounds behind it.
        const probe = document.createElement('div');
        probe.style.cssText = 'background-color: Canvas; color: CanvasText; position: absolute';
        document.documentElement.appendChild(probe);
        const canvasColour = getComputedStyle(probe).backgroundColor;
        probe.remove();

        audit.parse = function (text) {
          let match = /^rgba?\(([^)]*)\)$/.exec(text);
          if (match) {
            const parts = match[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
            return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
          }
          match = /^color\(srgb ([^)]*)\)$/.exec(text);
          if (match) {
            const parts = match[1].split(/[\s\/]+/).filter(Boolean).map(parseFloat);
            return { r: parts[0] * 255, g: parts[1] * 255, b: parts[2] * 255, a: parts.length > 3 ? parts[3] : 1 };
          }
          return null;
        };
        const over = (top, bottom) => ({
          r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
          b: top.b * top.a + bottom.b * (1 - top.a), a: 1,
        });
        const channel = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
        const ratio = (x, y) => {
          const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p);
          return (a + 0.05) / (b + 0.05);
        };

        audit.over = over;
        audit.ratio = ratio;
        audit.rgb = (c) => 'rgb(' + [c.r, c.g, c.b].map(Math.round).join(', ') + ')';

        // The colour seen behind `start`'s content: the backgrounds of `start` and its ancestors, down to the first
        // opaque one, over the canvas; `unknown` says why not (a background image).
        audit.backdrop = function (start) {
          const layers = [];
          for (let e = start; e && e.nodeType === 1; e = e.parentElement) {
            const s = getComputedStyle(e);
            if (s.backgroundImage !== 'none') return { unknown: 'background image on ' + audit.describe(e) };
            const background = audit.parse(s.backgroundColor);
            if (background === null) return { unknown: 'background ' + s.backgroundColor };
            if (background.a > 0) layers.push(background);
            if (background.a >= 1) break;
          }
          let behind = audit.parse(canvasColour) || { r: 255, g: 255, b: 255, a: 1 };
          for (let i = layers.length - 1; i >= 0; i--) behind = over(layers[i], behind);
          return { colour: behind };
        };

        const skipTags = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'OPTION', 'TEXTAREA', 'SELECT']);
        for (const el of document.body.querySelectorAll('*')) {
          if (skipTags.has(el.tagName) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
          const ownText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
          if (!ownText || hidden(el) || el.disabled || el.closest('[disabled]')) continue;
          const box = el.getBoundingClientRect();
          if (box.width * box.height < 4) continue;  // visually hidden text (a screen reader's only)
          const style = getComputedStyle(el);
          let text = audit.parse(style.color);
          let opacity = 1;
          for (let e = el; e && e.nodeType === 1; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
          const backdrop = text === null ? { unknown: 'colour ' + style.color } : audit.backdrop(el);
          if (backdrop.unknown) { unknownContrast.push(audit.describe(el) + ': ' + backdrop.unknown); continue; }
          const behind = backdrop.colour;
          text = over({ r: text.r, g: text.g, b: text.b, a: text.a * opacity }, behind);
          const size = parseFloat(style.fontSize), weight = parseInt(style.fontWeight, 10) || 400;
          const large = size >= 24 || (size >= 18.66 && weight >= 700);
          const needed = large ? 3 : 4.5, found = ratio(text, behind);
          if (found < needed) {
            add('contrast', el, 'contrast ' + found.toFixed(2) + ':1, needs ' + needed + ':1 (' + style.color +
              ' on rgb(' + [behind.r, behind.g, behind.b].map(Math.round).join(', ') + ')' + (opacity < 1 ? ', opacity ' + opacity.toFixed(2) : '') + ')');
          }
        }

        // Buttons: a shape that stands out from what is behind them, their background or their border at 3:1
        // (WCAG 2.2's non-text contrast, 1.4.11): a button the colour of the page is only a caption.
        const buttons = 'button, input[type=button], input[type=submit], input[type=reset], [role=button]';
        for (const el of document.querySelectorAll(buttons)) {
          if (hidden(el) || el.disabled) continue;
          const backdrop = audit.backdrop(el.parentElement);
          if (backdrop.unknown) { unknownContrast.push(audit.describe(el) + ': ' + backdrop.unknown); continue; }
          const behind = backdrop.colour, s = getComputedStyle(el), edges = [];
          const fill = audit.parse(s.backgroundColor);
          if (fill) edges.push(over(fill, behind));
          const border = audit.parse(s.borderTopColor);
          if (border && !['none', 'hidden'].includes(s.borderTopStyle) && parseFloat(s.borderTopWidth) >= 1) edges.push(over(border, behind));
          const found = Math.max(1, ...edges.map((c) => ratio(c, behind)));
          if (found < 3) {
            add('control-boundary', el, 'its background (' + s.backgroundColor + ') and border (' + s.borderTopWidth + ' ' +
              s.borderTopStyle + ' ' + s.borderTopColor + ') stand out ' + found.toFixed(2) + ':1 from ' + audit.rgb(behind) +
              ' behind it, needs 3:1');
          }
        }

        // The document's language.
        const lang = document.documentElement.getAttribute('lang') || '';
        if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(lang)) {
          violations.push({ rule: 'document-language', element: 'html', detail: 'lang is ' + (lang ? '"' + lang + '", not a language tag' : 'missing') });
        }

        // Exactly one main landmark.
        const mains = Array.from(document.querySelectorAll('main, [role=main]')).filter((el) => !hidden(el));
        if (mains.length !== 1) {
          violations.push({ rule: 'main-landmark', element: 'document', detail: mains.length + ' main landmarks, not 1' });
        }

        // No positive tabindex.
        for (const el of document.querySelectorAll('[tabindex]')) {
          if (parseInt(el.getAttribute('tabindex'), 10) > 0) add('positive-tabindex', el, 'tabindex="' + el.getAttribute('tabindex') + '"');
        }

        // Headings go down one level at a time (the first is h1).
        let previous = 0;
        for (const el of document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading]')) {
          if (hidden(el)) continue;
          const level = parseInt(el.getAttribute('aria-level') || el.tagName.slice(1), 10) || 2;
          if (level > previous + 1) add('heading-order', el, 'h' + level + ' after ' + (previous ? 'h' + previous : 'the start of the page'));
          previous = level;
        }

        // The focusable elements in DOM order (one per radio group), with their unfocused styles.
        audit.style = function (el) {
          const s = getComputedStyle(el);
          return {
            outlineStyle: s.outlineStyle, outlineWidth: s.outlineWidth, outlineColor: s.outlineColor,
            boxShadow: s.boxShadow, backgroundColor: s.backgroundColor, borderColor: s.borderTopColor + ' ' +
            s.borderRightColor + ' ' + s.borderBottomColor + ' ' + s.borderLeftColor, borderWidth: s.borderTopWidth,
            textDecoration: s.textDecorationLine,
          };
        };
        const candidates = document.querySelectorAll(
          'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable], audio[controls], video[controls]');
        const radios = new Set();
        audit.focusables = Array.from(candidates).filter((el) => {
          if (el.disabled || el.tabIndex < 0 || el.closest('[inert]') || hidden(el) || (el.tagName === 'INPUT' && el.type === 'hidden')) return false;
          if (el.tagName === 'INPUT' && el.type === 'radio' && el.name) {
            const group = Array.from(document.querySelectorAll('input[type=radio]')).filter((r) => r.name === el.name && r.form === el.form);
            const chosen = group.find((r) => r.checked) || group[0];
            if (chosen !== el) return false;
          }
          return true;
        });
        if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
        audit.unfocused = audit.focusables.map(audit.style);
        return { violations, unknownContrast, focusableCount: audit.focusables.length };
        """#

    /// Leaves nothing focused and the page at its top, so the first Tab goes to the first focusable element.
    static let resetFocus = """
        if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
        window.scrollTo(0, 0);
        return true;
        """

    /// Where the last Tab put the focus (its index in the focusable list, -1 outside it), whether the element
    /// looks focused (an outline drawn, or its box-shadow, background, border or underline changed), and, for a
    /// drawn outline, why it is too faint: under 3:1 against what is behind it (the parent's backdrop, or the
    /// element's own for an outline drawn inside it), WCAG 2.2's non-text contrast. The browser's own two-tone `auto`
    /// ring is not measured.
    static let focusStep = """
        const audit = window.__toltAudit;
        const el = document.activeElement;
        const index = audit.focusables.indexOf(el);
        if (index < 0) return { index: -1, element: audit.describe(el), indicator: false };
        const now = audit.style(el), before = audit.unfocused[index];
        const colour = audit.parse(now.outlineColor);
        const outline = now.outlineStyle !== 'none' && parseFloat(now.outlineWidth) > 0 && (!colour || colour.a > 0);
        const outlineChanged = outline && (now.outlineStyle !== before.outlineStyle
          || now.outlineWidth !== before.outlineWidth || now.outlineColor !== before.outlineColor);
        const indicator = outlineChanged || now.boxShadow !== before.boxShadow
          || now.backgroundColor !== before.backgroundColor || now.borderColor !== before.borderColor
          || now.borderWidth !== before.borderWidth || now.textDecoration !== before.textDecoration;
        let faintOutline = null;
        if (outlineChanged && colour && now.outlineStyle !== 'auto') {
          const inside = parseFloat(getComputedStyle(el).outlineOffset) < 0;
          const backdrop = audit.backdrop(inside ? el : el.parentElement);
          if (!backdrop.unknown) {
            const found = audit.ratio(audit.over(colour, backdrop.colour), backdrop.colour);
            if (found < 3) {
              faintOutline = 'focus outline ' + now.outlineColor + ' stands out ' + found.toFixed(2) + ':1 from ' +
                audit.rgb(backdrop.colour) + ' behind it, needs 3:1';
            }
          }
        }
        return { index, element: audit.describe(el), indicator, faintOutline };
        """
}
