/// The configuration documents (the `tolt-edge import` JSON form) that several tests start from, defined once.
///
/// The two differ on purpose, and tests count on what each holds: change one only with the tests that use it.
/// A document that only one test needs (hostile values, fifty racing partners, a partial update) stays in that
/// test, where its reader needs it.
package enum ConfigFixtures {
    /// What a server test starts from. Two organizations: `pk_acme` (`prg_acme` with a deep-link template,
    /// window 30 days, an inactive code, an inactive partner and a code two partners share; `prg_play` without
    /// a template, with a Play and an App Store URL; `prg_bare` without app links) and `pk_other`.
    package static let standard = """
        {"organizations":[
          {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret","programs":[
            {"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
             "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                          "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                          "app_store_url":"https://apps.apple.com/app/id123456789"},
             "partners":[
               {"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true},
                                                                         {"code":"OLD10","active":false}]},
               {"id":"part_idle","name":"Idle","status":"inactive","codes":[{"code":"IDLE5","active":true}]},
               {"id":"part_a","name":"A","status":"active","codes":[{"code":"SHARED","active":true}]},
               {"id":"part_b","name":"B","status":"active","codes":[{"code":"shared","active":true}]}]},
            {"id":"prg_play","name":"Acme Lite",
             "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.acme.lite&hl=en",
                          "app_store_url":"https://apps.apple.com/app/id987654321"},
             "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE","active":true}]}]},
            {"id":"prg_bare","name":"Acme Bare",
             "partners":[{"id":"part_bo","name":"Bo","status":"active","codes":[{"code":"BARE1","active":true}]}]}]},
          {"id":"org_other","name":"Other","public_key":"pk_other","secret_key":"sk_other_secret","programs":[
            {"id":"prg_other","name":"Other App",
             "partners":[{"id":"part_zed","name":"Zed","status":"active","codes":[{"code":"ZED","active":true}]}]}]}
        ]}
        """

    /// What a store test starts from. One organization, `org_acme`: a template program (two partners, one of
    /// them inactive, and a code `IDLE5` that leaves `active` out) and a Play-only program: 1 organization,
    /// 2 programs, 3 partners and 4 codes.
    package static let acme = """
        {"organizations":[
          {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret","programs":[
            {"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
             "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                          "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                          "app_store_url":"https://apps.apple.com/app/id123456789"},
             "partners":[
               {"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true},
                                                                         {"code":"OLD10","active":false}]},
               {"id":"part_idle","name":"Idle","status":"inactive","codes":[{"code":"IDLE5"}]}]},
            {"id":"prg_play","name":"Acme Lite",
             "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.acme.lite"},
             "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE","active":true}]}]}]}
        ]}
        """
}
