@testable import EdgeServer

/// The server's own response type: TestSupport's `HTTPResponse` (what the test client reads) has the same name, and
/// the module name `EdgeServer` is also a class's, so `EdgeServer.HTTPResponse` cannot name it where both are
/// imported.
typealias EngineResponse = HTTPResponse
