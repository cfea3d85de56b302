import LinkCore

extension ConfigRecords {
    /// The records with code references and secrets (secret keys, RevenueCat authorizations) left out, for
    /// comparing two stores.
    var comparable: String {
        let organizations = self.organizations.map { "\($0.id)|\($0.name)|\($0.publicKey)" }.sorted()
        let programs = self.programs.map {
            "\($0.id)|\($0.organizationID)|\($0.name)|\(String(describing: $0.claimWindowDays))|"
                + "\($0.deepLinkTemplate ?? "-")|\($0.googlePlayURL ?? "-")|\($0.appStoreURL ?? "-")|"
                + String(describing: $0.commission) + "|\($0.appName ?? "-")|\($0.appIconURL ?? "-")|"
                + "\($0.brandColor ?? "-")|\($0.ogImageURL ?? "-")|\($0.ogDescription ?? "-")|"
                + "\($0.iosAppIDs)|\($0.androidApps.map { "\($0.packageName)=\($0.fingerprints)" })"
        }.sorted()
        let partners = self.partners.map { "\($0.id)|\($0.programID)|\($0.name)|\($0.status)" }.sorted()
        let codes = self.codes.map { "\($0.partnerID)|\($0.code)|\($0.active)" }.sorted()
        return (organizations + programs + partners + codes).joined(separator: "\n")
    }
}
