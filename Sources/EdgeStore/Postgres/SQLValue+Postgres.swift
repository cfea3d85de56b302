/// Parameters are sent to PostgreSQL in its text format.
extension SQLValue {
    /// The parameter's text, nil for SQL NULL. PostgreSQL's text cannot hold U+0000: such a value is refused
    /// rather than cut at the NUL, where two different values would become one.
    var postgresText: String? {
        get throws(StoreError) {
            switch self {
            case .null: return nil
            case .integer(let number): return String(number)
            case .text(let text):
                guard !text.utf8.contains(0) else { throw .database("PostgreSQL text cannot hold U+0000") }
                return text
            case .bytes(let bytes): return "\\x" + Hex.encode(bytes)
            case .array(let elements):
                var literal = "{"
                for (index, element) in elements.enumerated() {
                    if index > 0 { literal += "," }
                    guard let text = try element.postgresText else {
                        literal += "NULL"
                        continue
                    }
                    literal += "\""
                    for character in text.unicodeScalars {
                        if character == "\"" || character == "\\" { literal += "\\" }
                        literal.unicodeScalars.append(character)
                    }
                    literal += "\""
                }
                return literal + "}"
            }
        }
    }
}

/// Statements are written with SQLite's parameter marks (`?` takes the next number, `?N` number N), like the
/// SQLite store's, and numbered for PostgreSQL (`$N`) when prepared.
enum PostgresPlaceholders {
    static func numbered(_ sql: String) -> String {
        var out = ""
        var highest = 0
        var inLiteral = false
        var scalars = Array(sql.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "'" { inLiteral.toggle() }
            guard scalar == "?", !inLiteral else {
                out.unicodeScalars.append(scalar)
                continue
            }
            var digits = ""
            while let next = scalars.first, ("0"..."9").contains(next) {
                digits.unicodeScalars.append(next)
                scalars.removeFirst()
            }
            let number = Int(digits) ?? highest + 1
            highest = max(highest, number)
            out += "$\(number)"
        }
        return out
    }
}
