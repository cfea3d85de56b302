import Foundation

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

    /// A response of `rawHead` (the status line and headers, without the blank line that ends them) and no body yet:
    /// the status from the status line, each header's name lower-cased and its value trimmed.
    package init(head rawHead: [UInt8]) throws {
        let lines = String(decoding: rawHead, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TestError("bad status line: \(lines[0].prefix(300))")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].lowercased(),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        self.init(status: status, headers: headers, body: [], rawHead: rawHead)
    }

    /// The value of the first header called `name` (any case).
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The status line as received (`HTTP/1.1 201 Created`).
    package var statusLine: String {
        String(decoding: rawHead.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    }
}
