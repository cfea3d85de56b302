import Foundation
import Tolt

// What an app does with Tolt, as a command: configure for an edge, then claim a code or a deep link for a user.
//
//   ToltExample <edge URL> <public key> <code | deep link> <app user id>
//
// Prints the claim's status and user (`claimed user-1`), `no claim` for a link without `tolt_click` or
// `tolt_code`; exits 1 with the error for a `ToltError`.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let edge = URL(string: arguments[0]), edge.scheme != nil else {
    FileHandle.standardError.write(Data("usage: ToltExample <edge URL> <public key> <code | deep link> <user>\n".utf8))
    exit(2)
}
let (publicKey, claimed, appUserId) = (arguments[1], arguments[2], arguments[3])

Tolt.configure(publicId: publicKey, baseURL: edge)
do {
    let result: ClaimResult?
    if let link = URL(string: claimed), link.scheme != nil {
        result = try await Tolt.claim(url: link, appUserId: appUserId)
    } else {
        result = try await Tolt.claim(code: claimed, appUserId: appUserId)
    }
    print(result.map { "\($0.status.rawValue) \($0.appUserId)" } ?? "no claim")
} catch let error as ToltError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
