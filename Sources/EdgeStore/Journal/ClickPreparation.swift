/// What the ingester does to a journaled click before the store keeps it: the country is looked up from the whole
/// address (with a `--geoip` database), then the address is cut to what `--ip-storage` keeps. The journal holds
/// whole addresses only until the click is ingested; the store never does, unless `full` is asked for.
public struct ClickPreparation: Sendable {
    /// The country database; `nil` stores every click without a country.
    public var countries: CountryLookup?
    /// How much of the address the store keeps.
    public var ipStorage: IPStorage

    /// `full` keeps what embedders and tests that construct an ingester themselves have always stored; the server
    /// passes `--ip-storage` (default `anonymized`).
    public init(countries: CountryLookup? = nil, ipStorage: IPStorage = .full) {
        self.countries = countries
        self.ipStorage = ipStorage
    }

    /// Sets the click's country and cuts its address. Returns libmaxminddb's reason when the lookup failed on a
    /// damaged database: the click is then stored without a country, as when the address is unknown.
    func prepare(_ click: inout ClickRecord) -> String? {
        var failure: String?
        click.country = nil
        if let countries, let address = IPAddress(click.ip) {
            switch countries.country(of: address) {
            case .country(let code): click.country = code
            case .unknown: break
            case .failed(let reason): failure = reason
            }
        }
        click.ip = ipStorage.stored(click.ip)
        return failure
    }
}
