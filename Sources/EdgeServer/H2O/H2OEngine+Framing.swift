internal import CH2O

/// HTTP/1 framing that h2o 2.2 lets through, settled before any route (RFC 9112), so that a proxy in front that frames
/// a request another way cannot slip a second request past it (request smuggling).
///
/// h2o takes the first of two different `Content-Length` values, reads `Transfer-Encoding: chunked` beside a
/// `Content-Length` without closing the connection, passes obs-fold on, and keeps an absolute-form target as the path;
/// picohttpparser, under it, accepts a 16-digit chunk size and waits for the data, and reads `5zz` as a chunk of 5.
/// `framing.c` answers the first three (`400 bad_request`, or the answer and a closed connection) and routes the
/// fourth by its path; `chunked.c` replaces the chunked decoder with a strict one that refuses a bad size at once.
extension H2OEngine {
    /// Puts the framing checks in front of every route of `config` and bounds chunk sizes by its body limit; logs when
    /// the strict chunked decoder, or bodylimit.c's request parser, is not the one h2o calls (a build that does not
    /// export it from the executable).
    static func enforceFraming(in config: UnsafeMutablePointer<h2o_globalconf_t>, log: (String) -> Void) {
        tolt_h2o_framing_configure(config)
        if !usesStrictChunkedDecoder {
            log(
                "warning: h2o decodes chunked bodies with its own lenient decoder; bad chunk sizes wait for the timeout"
            )
        }
        if !smallerBodyLimits.isEmpty, !refusesSmallerLimitsFromTheHead {
            log(
                "warning: h2o parses requests with its own parser; a claim's body over its limit is refused only once"
                    + " all of it has arrived")
        }
    }

    /// Whether h2o's chunked request bodies go through `chunked.c` (the executable's definition interposes
    /// libh2o-evloop's).
    static var usesStrictChunkedDecoder: Bool { tolt_h2o_chunked_decoder_is_ours() != 0 }

    /// Whether h2o's HTTP/1 heads go through `bodylimit.c` (the executable's `phr_parse_request` interposes
    /// libh2o-evloop's), which refuses a body over ``smallerBodyLimits`` from its head.
    static var refusesSmallerLimitsFromTheHead: Bool { tolt_h2o_body_limit_is_active() != 0 }
}
