import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A template phones without the app cannot open, or whose links the Tolt SDK cannot read, is imported with a
/// warning naming the field, not refused (an app may reach only people who have it, or read its links its own way),
/// and the warning is said when the template is set, not again at each import that leaves it.
@Suite struct ConfigTemplateAdviceTests {
    static let path = "organizations[0].programs[0].app_links.deep_link_template: the template "

    static func document(_ template: String) -> String {
        """
        {"organizations":[{"id":"org_t","name":"T","public_key":"pk_t","secret_key":"sk_t_secret","programs":[
          {"id":"prg_t","name":"T","app_links":{"deep_link_template":"\(template)"}}]}]}
        """
    }

    @Test(arguments: StoreKind.allCases) func aTemplateTheSDKCannotReadIsImportedWithAWarning(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        // The dashboard's old example, and an https template with its own parameter names.
        let report = try fixture.importJSON(Self.document("myapp://claim?code={code}&click={click_id}"))
        #expect(report.changes.contains("created program prg_t"))
        #expect(report.warnings.count == 2, "\(report.warnings)")
        #expect(report.warnings.first?.hasPrefix(Self.path + "is a scheme only the app opens") == true)
        #expect(
            report.warnings.last?.hasPrefix(Self.path + "has no tolt_code={code} or tolt_click={click_id}") == true)
        let stored = try fixture.store.configRecords().programs.first { $0.id == "prg_t" }?.deepLinkTemplate
        #expect(stored == "myapp://claim?code={code}&click={click_id}", "accepted as it is")
        #expect(try fixture.importJSON(Self.document("myapp://claim?code={code}&click={click_id}")).reportsNothing)

        let web = try fixture.importJSON(Self.document("https://fitly.app/invite/{code}?click={click_id}"))
        #expect(web.warnings.count == 1, "\(web.warnings)")
        #expect(web.warnings.first?.hasPrefix(Self.path + "has no tolt_code={code}") == true)
    }

    @Test(arguments: StoreKind.allCases) func anHTTPSTemplateWithTheSDKsParametersIsNotWarnedAbout(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let report = try fixture.importJSON(
            Self.document("https://acme.example/claim?tolt_code={code}&tolt_click={click_id}"))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let scheme = try fixture.importJSON(Self.document("myapp://claim?tolt_code={code}&tolt_click={click_id}"))
        #expect(scheme.warnings.count == 1 && scheme.warnings[0].contains("https:// universal link or App Link"))
    }
}
