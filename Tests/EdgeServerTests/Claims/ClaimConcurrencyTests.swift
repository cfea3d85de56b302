import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// Racing claims for one user: exactly one `claimed`, decided by the store's unique index, not by timing.
@Suite struct ClaimConcurrencyTests {
    static let racers = 50

    /// `org_race` with 50 active partners, each with its own code `RACE0`…`RACE49`, and no claim window.
    static let config: String = {
        let partners = (0..<racers).map {
            #"{"id":"part_r\#($0)","name":"Racer \#($0)","status":"active","#
                + #""codes":[{"code":"RACE\#($0)","active":true}]}"#
        }
        return
            #"{"organizations":[{"id":"org_race","name":"Race","public_key":"pk_race","secret_key":"sk_race_secret","#
            + #""programs":[{"id":"prg_race","name":"Race","partners":[\#(partners.joined(separator: ","))]}]}]}"#
    }()

    /// Runs `body(index)` on `count` threads released together; returns the results in index order.
    static func race<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>]
    {
        let results = RaceResults<T>()
        let ready = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<count {
            ready.enter()
            done.enter()
            TestThread.start(name: "claim-race") {
                ready.leave()
                start.wait()
                let result = Result { try body(index) }
                results.byIndex.withLock { $0[index] = result }
                done.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { start.signal() }
        done.wait()
        return results.byIndex.withLock { results in (0..<count).map { results[$0]! } }
    }

    /// Sends `body(index)` for each of the 50 racers at once to a server over ``config`` on `kind`: each on a
    /// connection of its own, connected before the start, and from a client address of its own so the rate limit
    /// stays out of the way. Returns each racer's status and body, in index order, and the customers stored.
    static func raceClaims(kind: StoreKind, _ body: @escaping @Sendable (Int) -> String) throws -> (
        answers: [(Int, String)], customers: [[String: Any]]
    ) {
        let server = try TestServer(config: Self.config, store: kind, trustedProxies: ["127.0.0.1/32"])
        defer { server.shutdown() }
        let port = server.port
        let clients = (0..<Self.racers).map { _ in HTTPClient(port: port) }
        for client in clients { #expect(try client.request("GET", "/healthz").status == 200) }
        let shared = UncheckedBox(clients)
        let results = Self.race(Self.racers) { index in
            let response = try shared.value[index].claim(
                body(index), headers: [("X-Forwarded-For", "198.51.100.\(index)")])
            return (response.status, response.text)
        }
        return (try results.map { try $0.get() }, try server.client().customers(key: "sk_race_secret"))
    }

    @Test(arguments: StoreKind.allCases) func fiftyParallelClaimsForOneUserMakeExactlyOneCustomer(kind: StoreKind)
        throws
    {
        let (answers, customers) = try Self.raceClaims(kind: kind) { index in
            ClaimBody.make(publicID: "pk_race", user: "racer", code: "RACE\(index)")
        }
        // The winner's answer names its own code and partner.
        let claimed = answers.indices.filter {
            Self.response(answers[$0]).isClaimed(user: "racer", code: "RACE\($0)", partner: "Racer \($0)")
        }
        // Each loser raced with another code than the winner's: not the same claim, and nothing named.
        let already = answers.filter { Self.response($0).isAlreadyClaimed(user: "racer", sameClaim: false) }
        #expect(claimed.count == 1, "\(answers)")
        #expect(already.count == Self.racers - 1, "\(answers)")
        #expect(answers.allSatisfy { $0.0 == 200 })
        #expect(customers.count == 1)
        // The one customer belongs to the partner whose claim was answered `claimed`.
        #expect(customers.first?["partner_id"] as? String == claimed.first.map { "part_r\($0)" })
    }

    /// Fifty claims of one user with one code (an app retrying on several connections): one `claimed`, and every
    /// loser, whether it found the winner before its insert or read it back after, the same claim naming the code
    /// and partner in effect.
    @Test(arguments: StoreKind.allCases) func theLosersOfARaceForOneCodeNameWhatIsInEffect(kind: StoreKind) throws {
        // In either case: each answer spells the code as stored.
        let (answers, customers) = try Self.raceClaims(kind: kind) { index in
            ClaimBody.make(publicID: "pk_race", user: "retrier", code: index % 2 == 0 ? "RACE7" : "race7")
        }
        let claimed = answers.filter {
            Self.response($0).isClaimed(user: "retrier", code: "RACE7", partner: "Racer 7")
        }
        let same = answers.filter {
            Self.response($0).isSameClaim(user: "retrier", code: "RACE7", partner: "Racer 7")
        }
        #expect(claimed.count == 1, "\(answers)")
        #expect(same.count == Self.racers - 1, "\(answers)")
        #expect(customers.count == 1)
    }

    /// A racer's status and body as a response, for the answer checks.
    static func response(_ answer: (Int, String)) -> TestSupport.HTTPResponse {
        TestSupport.HTTPResponse(status: answer.0, headers: [], body: Array(answer.1.utf8), rawHead: [])
    }

    /// The store itself decides: 50 connections inserting the same user with different partners at once.
    @Test(arguments: StoreKind.allCases) func theStoresUniqueIndexDecidesBetweenRacingInserts(kind: StoreKind) throws {
        let server = try TestServer(config: Self.config, store: kind)
        defer { server.shutdown() }
        let stores = try (0..<Self.racers).map { _ in try server.fixture.reopen() }
        let shared = UncheckedBox(stores)
        let now = WallClock.milliseconds()
        let results = Self.race(Self.racers) { index in
            let customer = CustomerRecord(
                id: EntityID.make(prefix: "cust_"), organizationID: "org_race", customerID: "racer",
                partnerID: "part_r\(index)", programID: "prg_race", code: "RACE\(index)", clickID: nil, status: "lead",
                claimedAt: now, firstSeenAt: nil)
            let result = try shared.value[index].claim(customer)
            return (result.created, result.customer.partnerID)
        }
        let outcomes = try results.map { try $0.get() }
        let created = outcomes.enumerated().filter { $0.element.0 }
        #expect(created.count == 1)
        // Every racer reads back the same winner.
        let winner = "part_r\(created.first?.offset ?? -1)"
        #expect(outcomes.allSatisfy { $0.1 == winner }, "\(outcomes)")
        #expect(try server.store.customers(CustomerQuery(organizationID: "org_race")).items.count == 1)
    }
}

/// What each racing thread returned, by its index.
final class RaceResults<T: Sendable>: Sendable {
    let byIndex = Mutex<[Int: Result<T, any Error>]>([:])
}

/// Hands values that are only used one element per thread to the racing threads. `@unchecked Sendable`:
/// each thread touches only its own element, and the array itself is never mutated while they run.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
