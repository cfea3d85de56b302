/// A response as it came off the wire.
package struct HTTPResponse {
    package var status: Int
    /// Header names lower-cased, in order, with their raw values.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The bytes of the status line and headers, exactly as received.
    package var rawHead: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)], body: [UInt8], rawHead: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
        self.rawHead = rawHead
    }

    /// The value of the first header called `name` (any case).
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
}
