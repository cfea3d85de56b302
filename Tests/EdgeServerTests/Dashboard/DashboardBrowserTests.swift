import EdgeServer
import Foundation
import LinkCore
import TestSupport
import Testing

/// The dashboard as a person uses it in headless Chromium: signing in, the Overview's chart, changing a program's
/// deep-link template and seeing the link follow it, adding a code and copying its link, finding a claimed customer
/// and a commission after a webhook, and what is refused. Screenshots of every page, phone and desktop, go to
/// `.build/test-output/screenshots/dashboard-*.png`.
///
/// Needs `chromium` and `chromium-driver` (`scripts/install-deps.sh test`); without them these tests fail, never
/// skip. Serialized, like the other browser suites.
@Suite(.serialized) struct DashboardBrowserTests {
    static let publicURL = "https://links.example.com"

    /// A server with webhooks (``TestServer/webhookConfig``) and a public URL, so partner pages show absolute links
    /// and QR codes.
    static func server(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(config: TestServer.webhookConfig) { configuration in
            configuration.publicURL = try? PublicURL(publicURL)
            configure(&configuration)
        }
    }

    /// Opens the sign-in page, types `key` and submits it.
    static func signIn(_ browser: ChromeDriverSession, origin: String, key: String = "sk_acme_secret") throws {
        try browser.open("\(origin)/dashboard/sign-in")
        _ = try browser.run("document.querySelector('#secret_key').value = arguments[0]", [key])
        try browser.click(try #require(try browser.element("form button[type=submit]")))
    }

    static func path(_ browser: ChromeDriverSession) -> String {
        (try? browser.run("return location.pathname + location.search")) as? String ?? ""
    }

    static func text(_ browser: ChromeDriverSession, _ selector: String) -> String? {
        (try? browser.run("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", [selector]))
            as? String
    }

    @Test func signingInShowsTheOverviewChartAndEveryPageAtPhoneAndDesktopSizes() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        // Two first taps and a repeat of one (same address and User-Agent): 3 clicks, 2 unique, today.
        let client = server.client()
        for agent in [Agents.iPhone, Agents.android, Agents.iPhone] {
            _ = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", agent)])
        }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.open("\(origin)/dashboard/sign-in")
        let signInAudit = try AccessibilityAudit.run(in: browser)
        #expect(signInAudit.violations.isEmpty, "sign-in: \(signInAudit)")
        try Self.signIn(browser, origin: origin)
        #expect(eventually { Self.path(browser) == "/dashboard" })
        // HttpOnly: the page's script cannot read the session.
        #expect(try browser.run("return document.cookie") as? String == "")
        let counted = eventually(within: 5) {
            try? browser.open("\(origin)/dashboard")
            return Self.text(browser, "#total-clicks") == "3" && Self.text(browser, "#total-unique-clicks") == "2"
        }
        #expect(counted, "totals: \(Self.text(browser, "#total-clicks") ?? "none")")
        let chart = try #require(try browser.element("#click-chart"))
        #expect(try browser.visibleText(chart).displayed)
        #expect(try browser.run("return document.querySelectorAll('#click-chart rect.clicks').length") as? Int == 30)
        #expect(
            try browser.run("return document.querySelector('#click-chart title').textContent") as? String
                == "Clicks and unique clicks per day, last 30 days")
        // Today's bar is the last one and the tallest: its height is the chart's whole value axis' share of 3.
        let heights =
            try browser.run(
                "return Array.from(document.querySelectorAll('#click-chart rect.clicks')).map(r => +r.getAttribute('height'))"
            ) as? [Int] ?? []
        #expect(heights.last ?? 0 > 0)
        #expect(heights.dropLast().allSatisfy { $0 == 0 }, "\(heights)")
        let lastRow = try browser.run("return document.querySelector('#chart-table tbody tr').textContent") as? String
        #expect(lastRow?.hasSuffix("32") == true, "the table's newest day: \(lastRow ?? "")")

        try Self.expectKeyboardOrder(browser)

        let pages = [
            ("overview", "/dashboard"), ("programs", "/dashboard/programs"),
            ("tracking", "/dashboard/programs/prg_acme/tracking"), ("partners", "/dashboard/partners"),
            ("partner", "/dashboard/partners/part_sam"), ("customers", "/dashboard/customers"),
            ("commissions", "/dashboard/commissions"), ("clicks", "/dashboard/clicks"),
            ("integrations", "/dashboard/settings/integrations"),
        ]
        for (name, path) in pages {
            try browser.open(origin + path)
            try DashboardPageChecks.expectAccessible(browser, page: name)
            try BrandedPageBrowserTests.saveScreenshot(try browser.screenshot(), name: "dashboard-\(name)-desktop")
        }
        // Nothing but the page itself is fetched, on any page.
        #expect(try browser.run("return performance.getEntriesByType('resource').length") as? Int == 0)
        try browser.devTools(
            "Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true])
        for (name, path) in pages {
            try browser.open(origin + path)
            #expect(
                // Against the phone's width: a phone browser zooms out to fit a wider page, widening innerWidth.
                try browser.run("return document.documentElement.scrollWidth <= 390") as? Bool == true,
                "\(name) scrolls sideways on a phone")
            try BrandedPageBrowserTests.saveScreenshot(try browser.screenshot(), name: "dashboard-\(name)-phone")
        }
        // The dark colour scheme changes the page's colours.
        let light = try browser.run("return getComputedStyle(document.body).backgroundColor") as? String
        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
        for (name, path) in pages {
            try browser.open(origin + path)
            try DashboardPageChecks.expectAccessible(browser, page: "\(name) (dark)")
        }
        try browser.open("\(origin)/dashboard")
        let dark = try browser.run("return getComputedStyle(document.body).backgroundColor") as? String
        #expect(light == "rgb(255, 255, 255)")
        #expect(dark == "rgb(18, 20, 23)")
        try BrandedPageBrowserTests.saveScreenshot(try browser.screenshot(), name: "dashboard-overview-phone-dark")
    }

    /// Tab from the top of the page: the skip link first (shown when focused), then the navigation in order and
    /// sign-out, each with a visible focus outline; Enter on the skip link moves focus to `main`.
    static func expectKeyboardOrder(_ browser: ChromeDriverSession) throws {
        func press(_ key: String, code: Int) throws {
            for type in ["rawKeyDown", "keyUp"] {
                try browser.devTools(
                    "Input.dispatchKeyEvent",
                    [
                        "type": type, "key": key, "code": key, "windowsVirtualKeyCode": code,
                        "nativeVirtualKeyCode": code,
                    ])
            }
        }
        var order: [String] = []
        for _ in 0..<9 {
            try press("Tab", code: 9)
            let focused =
                try browser.run(
                    """
                    const e = document.activeElement, s = getComputedStyle(e), r = e.getBoundingClientRect();
                    return [e.textContent.trim(), s.outlineStyle, s.outlineWidth, String(r.left >= 0 && r.width > 0)];
                    """) as? [String] ?? []
            #expect(
                focused.dropFirst() == ["solid", "3px", "true"], "focus on \(focused.first ?? "nothing") is not visible"
            )
            order.append(focused.first ?? "")
        }
        #expect(
            order == [
                "Skip to content", "Overview", "Programs", "Partners", "Customers", "Commissions", "Clicks", "Settings",
                "Sign out",
            ])
        _ = try browser.run("document.querySelector('a.skip').focus()")
        try press("Enter", code: 13)
        #expect(eventually { (try? browser.run("return document.activeElement.id")) as? String == "main" })
    }

    @Test func aNewDeepLinkTemplateIsWhereTheLinkGoesWithinTwoSeconds() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try Self.signIn(browser, origin: origin)
        #expect(eventually { Self.path(browser) == "/dashboard" })
        try browser.open("\(origin)/dashboard/programs/prg_acme/tracking")
        let field = "#field-deep_link_template"
        // An invalid template: nothing saved, the error beside the field, the value kept.
        _ = try browser.run("document.querySelector(arguments[0]).value = 'javascript:alert(1)//{code}'", [field])
        try browser.click(try #require(try browser.element("form.stack button[type=submit]")))
        #expect(eventually { Self.text(browser, "#field-deep_link_template-error") != nil })
        #expect(
            try browser.run("return document.querySelector(arguments[0]).value", [field]) as? String
                == "javascript:alert(1)//{code}")
        #expect(
            try browser.run("return document.querySelector(arguments[0]).getAttribute('aria-invalid')", [field])
                as? String == "true")
        try BrandedPageBrowserTests.saveScreenshot(try browser.screenshot(), name: "dashboard-tracking-error-desktop")

        _ = try browser.run(
            "document.querySelector(arguments[0]).value = 'acmenew://open?c={code}&k={click_id}'", [field])
        try browser.click(try #require(try browser.element("form.stack button[type=submit]")))
        #expect(eventually { Self.text(browser, "#saved") != nil })
        let savedAt = WallClock.milliseconds()
        let client = server.client()
        let followed = eventually(within: 2) {
            let response = try? client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            return response?.header("location")?.hasPrefix("acmenew://open?c=SAM20&k=clk_") == true
        }
        #expect(followed, "the link took the new template \(WallClock.milliseconds() - savedAt) ms after saving")
        // The rest of the program stayed as it was.
        let program = try server.store.configRecords().programs.first { $0.id == "prg_acme" }
        #expect(program?.claimWindowDays == 30)
        #expect(program?.googlePlayURL == "https://play.google.com/store/apps/details?id=com.acme")
        #expect(program?.commission?.durationMonths == 12)
    }

    /// A person gives a program without a commission its first rule: "A percentage of revenue", 20, Save, the
    /// Recurring box left as the form shows it. The rule is recurring, as README says `recurring` defaults to.
    /// Then, with an authorization stored, Settings → Integrations saves with the password field left empty (no
    /// `required` stops the browser) and keeps it.
    @Test func aFirstCommissionIsRecurringAndAnEmptyAuthorizationKeepsTheStoredOne() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try Self.signIn(browser, origin: origin)
        #expect(eventually { Self.path(browser) == "/dashboard" })
        try browser.open("\(origin)/dashboard/programs/prg_bare/tracking")
        _ = try browser.run(
            """
            document.querySelector('#field-commission_type').value = 'percent';
            document.querySelector('#field-commission_percent').value = '20';
            """)
        try browser.click(try #require(try browser.element("form.stack button[type=submit]")))
        #expect(eventually { Self.text(browser, "#saved") != nil })
        let rule = try server.store.configRecords().programs.first { $0.id == "prg_bare" }?.commission
        #expect(rule == CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: nil))

        let digest = try server.store.configRecords().organizations.first { $0.id == "org_acme" }?
            .revenueCatAuthorizationDigest
        #expect(digest != nil, "the webhook fixture stores an authorization")
        try browser.open("\(origin)/dashboard/settings/integrations")
        try browser.click(try #require(try browser.element("form[aria-labelledby=webhook] button[type=submit]")))
        #expect(eventually { Self.text(browser, "#kept") != nil }, "\(Self.path(browser))")
        #expect(
            try server.store.configRecords().organizations.first { $0.id == "org_acme" }?
                .revenueCatAuthorizationDigest == digest)
    }

    @Test func anAddedCodeHasALinkThatCopiesAndAQRCode() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try Self.signIn(browser, origin: origin)
        #expect(eventually { Self.path(browser) == "/dashboard" })
        try browser.open("\(origin)/dashboard/partners/part_sam")
        _ = try browser.run("document.querySelector('#field-code').value = 'SPRING26'")
        try browser.click(try #require(try browser.element("form.inline button[type=submit]")))
        let link = "\(Self.publicURL)/a/pk_acme/SPRING26"
        let shown = eventually {
            (try? browser.run("return Array.from(document.querySelectorAll('a.app-link')).map(a => a.textContent)"))
                .flatMap { $0 as? [String] }?.contains(link) == true
        }
        #expect(shown)
        let index = try #require(
            try browser.run(
                "return Array.from(document.querySelectorAll('li.code')).findIndex(li => li.querySelector('.app-link').textContent === arguments[0])",
                [link]) as? Int)
        #expect(try browser.run("return document.querySelectorAll('#code-\(index) figure.qr svg').length") as? Int == 1)
        #expect(
            try browser.run(
                "return getComputedStyle(document.querySelector('#code-\(index) figure.qr svg')).backgroundColor")
                as? String == "rgb(255, 255, 255)", "the style sheet gives the code its white ground")
        let button = try #require(try browser.element("#code-\(index) button.copy"))
        try browser.click(button)
        #expect(eventually { Self.text(browser, "#copy-status-\(index)") == "Copied" })
        let clipboard = try browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            navigator.clipboard.readText().then(done, (error) => done("readText failed: " + error));
            """)
        #expect(clipboard as? String == link)
        // The code works on the link path.
        let redirected = eventually(within: 2) {
            (try? server.client().request("GET", "/a/pk_acme/SPRING26", headers: [("User-Agent", Agents.iPhone)]))?
                .header("location")?.hasPrefix("myapp://claim?tolt_code=SPRING26") == true
        }
        #expect(redirected)
    }

    @Test func aClaimedCustomerIsALeadAndAWebhookBringsACommission() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        try server.claimUser("dash_user_1")
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try Self.signIn(browser, origin: origin)
        #expect(eventually { Self.path(browser) == "/dashboard" })
        try browser.open("\(origin)/dashboard/customers")
        _ = try browser.run("document.querySelector('#field-q').value = 'dash_user_1'")
        try browser.click(try #require(try browser.element("form.inline button[type=submit]")))
        #expect(eventually { Self.path(browser) == "/dashboard/customers?q=dash_user_1" })
        #expect(try browser.run("return document.querySelectorAll('#customers tbody tr').length") as? Int == 1)
        #expect(Self.text(browser, "#customers tbody td.status") == "lead")

        // The purchase names the anonymous id of the device it was made on: the customer's row shows it under its id.
        try server.client().deliver(
            RevenueCatPayload.purchase(
                user: "dash_user_1", price: "10", transaction: "dash-1",
                ["aliases": ["dash_user_1", "$RCAnonymousID:dash-phone"]]))
        try browser.open("\(origin)/dashboard/commissions?partner_id=part_sam&status=pending")
        #expect(try browser.run("return document.querySelectorAll('#commissions tbody tr').length") as? Int == 1)
        let row = Self.text(browser, "#commissions tbody tr") ?? ""
        #expect(row.contains("dash_user_1"), "\(row)")
        #expect(Self.text(browser, "#commissions tbody td.amount") == "$2.00", "20 % of $10")
        try browser.open("\(origin)/dashboard/customers?q=dash_user_1")
        #expect(Self.text(browser, "#customers tbody td.status") == "paying")
        #expect(Self.text(browser, "#customers tbody .aliases") == "Other ids: $RCAnonymousID:dash-phone")
        try DashboardPageChecks.expectAccessible(browser, page: "customers with other ids")
    }

    /// Against the real `tolt-edge serve --demo` as a child process, with `--dashboard-session 2s`.
    @Test func aWrongKeyAFormWithoutItsTokenAndAnExpiredSessionAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "dashboard",
            arguments: ["--demo", "--dashboard-session", "2s"])
        defer { server.stop() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try Self.signIn(browser, origin: origin, key: "sk_wrong_key")
        #expect(eventually { Self.text(browser, "#secret_key_error") == "That secret key is not valid." })
        #expect(Self.path(browser) == "/dashboard/sign-in")
        try BrandedPageBrowserTests.saveScreenshot(try browser.screenshot(), name: "dashboard-sign-in-error-desktop")

        try Self.signIn(browser, origin: origin, key: "sk_demo")
        #expect(eventually { Self.path(browser) == "/dashboard" })
        try browser.open("\(origin)/dashboard/programs/prg_demo/tracking")
        _ = try browser.run(
            """
            document.querySelector('form.stack input[name=csrf_token]').remove();
            document.querySelector('#field-deep_link_template').value = 'forged://x?c={code}';
            """)
        try browser.click(try #require(try browser.element("form.stack button[type=submit]")))
        #expect(eventually { Self.text(browser, "h1") == "Forbidden" })
        // Nothing was saved: the demo program still has no template, so an iPhone gets the page with the code.
        let tap = try server.client().request("GET", "/a/pk_demo/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 200)

        // After its 2 seconds the session sends every page back to the sign-in form.
        let expired = eventually(within: 6) {
            try? browser.open("\(origin)/dashboard")
            return Self.path(browser) == "/dashboard/sign-in"
        }
        #expect(expired)
    }
}

/// Accessibility checks of one dashboard page in the browser: landmarks, one `h1`, `lang`, the skip link, a label
/// on every control, a name on every link and button, and WCAG AA contrast of the text; then the shared
/// `AccessibilityAudit` (TestSupport/Browser), which also walks the focus order with real Tab presses and checks each
/// focused element shows it.
enum DashboardPageChecks {
    static func expectAccessible(_ browser: ChromeDriverSession, page: String) throws {
        let problems =
            try browser.run(
                """
                const problems = [];
                for (const landmark of ['header', 'nav', 'main']) {
                  if (!document.querySelector(landmark)) problems.push('no <' + landmark + '>');
                }
                if (document.querySelectorAll('h1').length !== 1) problems.push('not one h1');
                if (!document.documentElement.lang) problems.push('no lang');
                const skip = document.querySelector('a.skip');
                if (!skip || skip.getAttribute('href') !== '#main') problems.push('no skip link to #main');
                for (const control of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
                  const labelled = (control.id && document.querySelector('label[for="' + control.id + '"]'))
                    || control.closest('label') || control.getAttribute('aria-label');
                  if (!labelled) problems.push('unlabelled ' + (control.name || control.id));
                }
                for (const link of document.querySelectorAll('a, button')) {
                  if (!link.textContent.trim() && !link.getAttribute('aria-label')) problems.push('empty ' + link.outerHTML);
                }
                // WCAG AA contrast of every element's own text against its nearest opaque background: 4.5:1, or 3:1 for
                // large text (24 px, or 18.66 px bold).
                const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
                const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
                const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
                const background = (element) => {
                  for (let e = element; e; e = e.parentElement) {
                    const c = rgb(getComputedStyle(e).backgroundColor);
                    if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
                  }
                  return [255, 255, 255];
                };
                for (const element of document.body.querySelectorAll('*')) {
                  if (element.closest('svg') || element.closest('.sr-only') || element.closest('.skip')) continue;
                  const own = Array.from(element.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
                  if (!own || !element.getClientRects().length) continue;
                  const style = getComputedStyle(element);
                  const size = parseFloat(style.fontSize);
                  const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight) >= 700);
                  const [a, b] = [luminance(rgb(style.color).slice(0, 3)), luminance(background(element))];
                  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
                  if (ratio < (large ? 3 : 4.5)) {
                    problems.push('contrast ' + ratio.toFixed(2) + ' of ' + element.tagName + ' ' + element.textContent.trim().slice(0, 30));
                  }
                }
                return problems;
                """) as? [String]
        #expect(problems == [], "\(page): \(problems ?? ["the check did not run"])")
        let audit = try AccessibilityAudit.run(in: browser)
        #expect(audit.violations.isEmpty, "\(page): \(audit)")
    }
}
