import EdgeStore
import LinkCore

/// `GET /dashboard/settings/integrations`: what the app and RevenueCat need: the public key, the webhook URL and
/// its authorization, the claim endpoint with a ready `curl`.
extension DashboardHandler {
    func integrations(_ context: Context) -> APIResponse {
        let organization = context.organization
        let base = publicURL?.text ?? "https://<your edge host>"
        let key = PercentEncoding.encode(organization.publicKey)
        let webhook = "\(base)\(APIHandler.revenueCatWebhookPrefix)\(key)"
        let authorization =
            organization.revenueCatAuthorizationDigest == nil
            ? "Not set: the webhook refuses every event until you set it."
            : "Set (stored as a digest; it is never shown)."
        var content = "<h2>Public key</h2>"
        content +=
            #"<p>The app configures the SDK with it: <code id="public-key">\#(HTML.escape(organization.publicKey))</code></p>"#
        content += "<h2>RevenueCat webhook</h2>"
        content += #"<p>In RevenueCat, under Integrations → Webhooks, set the URL to:</p>"#
        content += #"<pre id="webhook-url">\#(HTML.escape(webhook))</pre>"#
        content +=
            "<p>and an authorization header value of your choosing. Store the same value in the edge with an import "
            + "(<code>\"revenuecat\": {\"authorization\": \"…\"}</code> on the organization, then "
            + "<code>tolt-edge import FILE</code>).</p>"
        content += #"<p>Authorization: <span id="webhook-authorization">\#(HTML.escape(authorization))</span></p>"#
        content += "<h2>Claims</h2>"
        content += "<p>The app claims a code (or a click) for its user with the public key:</p>"
        let curl =
            "curl -X POST \(base)/client/claims \\\n  -H 'Content-Type: application/json' \\\n"
            + "  -d '{\"public_id\":\"\(organization.publicKey)\",\"app_user_id\":\"user_123\",\"code\":\"SAM20\"}'"
        content += #"<pre id="claim-curl">\#(HTML.escape(curl))</pre>"#
        content += "<h2>Time zone</h2>"
        content +=
            #"<p>The Overview counts days in <code id="timezone">\#(HTML.escape(organization.timezone))</code>; "#
            + #"set another with <code>"timezone": "America/Los_Angeles"</code> on the organization in an import.</p>"#
        if publicURL == nil {
            content += #"<p class="hint">Start the server with --public-url to show your edge's own address here.</p>"#
        }
        return page(context, title: "Settings · Integrations", current: "settings", content: content)
    }
}
