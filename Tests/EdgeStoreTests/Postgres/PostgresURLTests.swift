import TestSupport
import Testing

@testable import EdgeStore

/// The store a command uses: the flag wins over `TOLT_STORE`, an empty value is none, a URL libpq cannot parse is
/// refused by name, and a password is never shown.
@Suite struct PostgresURLTests {
    @Test func theFlagWinsOverTheEnvironmentAndNeitherMeansSQLite() throws {
        let both = try StoreLocation.choose(
            dataDirectory: "d", store: "postgres://a@flag/db", environment: "postgresql://b@environment/db")
        #expect(both.postgres?.masked == "postgres://a@flag/db")
        let environment = try StoreLocation.choose(
            dataDirectory: "d", store: nil, environment: "postgresql://b@environment/db")
        #expect(environment.postgres?.masked == "postgresql://b@environment/db")
        let neither = try StoreLocation.choose(dataDirectory: "d", store: "", environment: nil)
        #expect(neither.postgres == nil && neither.description == "SQLite in d")
    }

    @Test(arguments: ["mysql://u@h/db", "/var/lib/tolt", "postgres://u:hunter2@h/db?no_such_option=1"])
    func aValueThatIsNotAUsablePostgresURLIsRefusedWithoutItsPassword(value: String) {
        #expect {
            try StoreLocation.choose(dataDirectory: "d", store: value, environment: nil)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.isInvalidConfig && !error.message.contains("hunter2")
        }
    }

    @Test func thePasswordIsMaskedInTheAuthorityAndInTheQuery() throws {
        #expect(
            try PostgresURL("postgres://tolt:hunter2@db.example.com:5432/tolt").masked
                == "postgres://tolt:***@db.example.com:5432/tolt")
        #expect(
            try PostgresURL("postgresql://tolt@db/tolt?sslmode=require&password=hunter2").masked
                == "postgresql://tolt@db/tolt?sslmode=require&password=***")
        #expect(try PostgresURL("postgres://tolt@db/tolt").description == "postgres://tolt@db/tolt")
        #expect(
            StoreLocation(dataDirectory: "d", postgres: try PostgresURL("postgres://u:p@h/x")).description
                == "PostgreSQL at postgres://u:***@h/x")
    }

    @Test func parameterMarksAreNumberedAsSQLiteNumbersThem() {
        #expect(PostgresPlaceholders.numbered("a = ? AND b = ? LIMIT ?") == "a = $1 AND b = $2 LIMIT $3")
        #expect(
            PostgresPlaceholders.numbered("a = ?1 OR c = ?2 AND d = ?1 AND e = ?")
                == "a = $1 OR c = $2 AND d = $1 AND e = $3")
        #expect(PostgresPlaceholders.numbered("x = '?' AND y = ?") == "x = '?' AND y = $1")
    }

    @Test func arraysAreQuotedElementByElement() throws {
        let value = SQLValue.array([.text(#"a"b\c"#), .null, .text("{,}"), .integer(-5)])
        #expect(try value.postgresText == #"{"a\"b\\c",NULL,"{,}","-5"}"#)
        #expect(throws: StoreError.self) { try SQLValue.text("a\u{0}b").postgresText }
    }
}
