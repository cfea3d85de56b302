import Foundation

/// An accessibility check of the page open in a ``ChromeDriverSession``, written here because no checker can be
/// fetched: a script run in the page inspects the DOM and computed styles, and real Tab key presses (through the
/// DevTools protocol) walk the focus order. ``violations`` is empty for a page that passes every rule.
///
/// What it checks (``Rule``): every form control has an accessible name (`label[for]`, a wrapping `label`,
/// `aria-label`, `aria-labelledby`); images and SVGs that convey meaning have a text alternative; buttons and
/// links have names; text has a contrast of at least 4.5:1 (3:1 for large text) against its effective background;
/// a button's background or border stands out at 3:1 from what is behind it; `html` has a `lang`; there is exactly
/// one `main` landmark; no `tabindex` is positive; Tab visits the focusable elements in DOM order and each shows a
/// visible focus indicator, an outline at 3:1 against what is behind it; headings do not skip levels.
///
///     let audit = try AccessibilityAudit.run(in: browser)
///     #expect(audit.violations.isEmpty, "\(audit)")
package struct AccessibilityAudit: CustomStringConvertible {
    /// One rule of the audit.
    package enum Rule: String, Sendable, CaseIterable {
        case formLabel = "form-label"
        case imageAlternative = "image-alternative"
        case controlName = "control-name"
        case contrast
        case documentLanguage = "document-language"
        case mainLandmark = "main-landmark"
        case positiveTabindex = "positive-tabindex"
        case focusOrder = "focus-order"
        case focusVisible = "focus-visible"
        /// A focus outline under 3:1 against what is behind it (WCAG 2.2's non-text contrast, 1.4.11).
        case focusContrast = "focus-contrast"
        /// A button whose background and border both stand out under 3:1 from what is behind it.
        case controlBoundary = "control-boundary"
        case headingOrder = "heading-order"
    }

    /// One element (or the document) breaking one rule.
    package struct Violation: Sendable, Equatable, CustomStringConvertible {
        package var rule: Rule
        /// The element, as `tag#id.class "text…"`.
        package var element: String
        package var detail: String

        package var description: String { "\(rule.rawValue): \(element): \(detail)" }
    }

    package var violations: [Violation]
    /// Text whose contrast could not be computed (a background image behind it), not counted as violations.
    package var unknownContrast: [String]
    /// How many focusable elements Tab walked through.
    package var focusableCount: Int

    /// The rules broken, each once, in rule order.
    package var brokenRules: [Rule] { Rule.allCases.filter { rule in violations.contains { $0.rule == rule } } }

    package var description: String {
        let lines = violations.map { "  " + $0.description } + unknownContrast.map { "  contrast unknown: " + $0 }
        return "accessibility audit: \(violations.count) violations\n" + lines.joined(separator: "\n")
    }

    /// The most Tab presses the focus walk makes: a page with more focusable elements is checked up to there.
    package static let maximumTabs = 200

    /// Audits the page `browser` has open. Moves the focus (it ends on the last element Tab reached).
    package static func run(in browser: ChromeDriverSession) throws -> AccessibilityAudit {
        guard let found = try browser.run(AccessibilityAuditScript.staticChecks) as? [String: Any] else {
            throw TestError("the accessibility script returned no report")
        }
        var audit = AccessibilityAudit(
            violations: violations(found["violations"]), unknownContrast: found["unknownContrast"] as? [String] ?? [],
            focusableCount: found["focusableCount"] as? Int ?? 0)
        audit.violations += try walkFocus(in: browser, expected: audit.focusableCount)
        return audit
    }

    private static func violations(_ value: Any?) -> [Violation] {
        (value as? [[String: Any]] ?? []).compactMap { item in
            guard let rule = Rule(rawValue: item["rule"] as? String ?? "") else { return nil }
            return Violation(
                rule: rule, element: item["element"] as? String ?? "?", detail: item["detail"] as? String ?? "")
        }
    }

    /// Presses Tab from the top of the page as a keyboard user would, and checks that it visits the focusable
    /// elements one by one in DOM order, each with a visible focus indicator (its focused style compared with
    /// the unfocused one the static checks recorded).
    private static func walkFocus(in browser: ChromeDriverSession, expected: Int) throws -> [Violation] {
        guard expected > 0 else { return [] }
        _ = try browser.run(AccessibilityAuditScript.resetFocus)
        var found: [Violation] = []
        var visited: [Int] = []
        for _ in 0..<min(expected, maximumTabs) {
            try pressTab(in: browser)
            guard let step = try browser.run(AccessibilityAuditScript.focusStep) as? [String: Any] else {
                throw TestError("the focus step returned nothing")
            }
            let index = step["index"] as? Int ?? -1
            let element = step["element"] as? String ?? "?"
            guard index >= 0 else {
                found.append(
                    Violation(
                        rule: .focusOrder, element: element,
                        detail: "Tab \(visited.count + 1) focused an element outside the focusable list"))
                break
            }
            if index != visited.count {
                found.append(
                    Violation(
                        rule: .focusOrder, element: element,
                        detail:
                            "Tab \(visited.count + 1) reached focusable #\(index + 1), DOM order says #\(visited.count + 1)"
                    ))
            }
            if step["indicator"] as? Bool != true {
                found.append(
                    Violation(
                        rule: .focusVisible, element: element,
                        detail: "no visible focus indicator (outline, box-shadow, border or background unchanged)"))
            }
            if let faint = step["faintOutline"] as? String {
                found.append(Violation(rule: .focusContrast, element: element, detail: faint))
            }
            if visited.contains(index) { break }
            visited.append(index)
        }
        if found.allSatisfy({ $0.rule != .focusOrder }) && visited.count < min(expected, maximumTabs) {
            found.append(
                Violation(
                    rule: .focusOrder, element: "document",
                    detail: "Tab reached \(visited.count) of \(expected) focusable elements"))
        }
        return found
    }

    /// One trusted Tab key press, as the keyboard sends it.
    private static func pressTab(in browser: ChromeDriverSession) throws {
        let key: [String: Any] = ["key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9, "nativeVirtualKeyCode": 9]
        try browser.devTools("Input.dispatchKeyEvent", key.merging(["type": "rawKeyDown"]) { $1 })
        try browser.devTools("Input.dispatchKeyEvent", key.merging(["type": "keyUp"]) { $1 })
    }
}
