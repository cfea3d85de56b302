internal import CH2O
import LinkCore

/// Holding link responses until their clicks are in the journal.
///
/// A link request that records a click stages it in the loop's journal writer and prepares its response, but
/// the response is sent only once one `write(2)` has put every staged click of the loop iteration into the page
/// cache. One system call per iteration instead of one per click, and still no response goes out before its
/// click is durable against a crash of the process. The flush runs in h2o's zero-timeout phase, after the
/// iteration's requests and within the same iteration, so connections go back to reading without `epoll_ctl`.
extension LoopContext {
    /// Marks the request's next response as held, and watches for the request going away meanwhile: the
    /// response starts now with a generator in the request's pool whose `stop` h2o calls if it does.
    func holdNextResponse(_ request: UnsafeMutablePointer<h2o_req_t>) {
        let record = tolt_h2o_start_held(request) { generator, _ in
            let record = tolt_h2o_held_of(generator!)!
            let owner = Unmanaged<LoopContext>.fromOpaque(record.pointee.owner).takeUnretainedValue()
            if owner.holdGeneration == record.pointee.generation { owner.held[record.pointee.index].request = nil }
        }!
        record.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        record.pointee.index = held.count
        record.pointee.generation = holdGeneration
        held.append(HeldResponse(request: request))
        holdsNextResponse = true
        tolt_h2o_loop_schedule_flush(loop) { entry in
            let loop = tolt_h2o_loop_of_flush(entry!)!
            Unmanaged<LoopContext>.fromOpaque(loop.pointee.owner).takeUnretainedValue().flushHeld()
        }
    }

    /// Writes the journal, then sends every held response, or a 503 for each when the clicks could not be
    /// written. Runs in the timeout phase of the iteration that held them (and after each iteration, which
    /// finds nothing held unless the loop is stopping). Sending can start the next request of a connection,
    /// which may hold a response again, so it repeats until nothing is held.
    func flushHeld() {
        while !held.isEmpty {
            let written = journal.flush()
            swap(&held, &sending)
            holdGeneration &+= 1
            for response in sending {
                guard let request = response.request else { continue }
                if written {
                    tolt_h2o_send_whole(request, response.body.baseAddress, response.body.count, 0)
                } else {
                    request.pointee.res.headers.size = 0
                    respond(
                        request,
                        APIResponse.error(
                            APIError(
                                status: 503, code: "unavailable",
                                message: "The click could not be recorded; try again")))
                }
            }
            sending.removeAll(keepingCapacity: true)
        }
    }
}

/// A prepared link response waiting for its click to be written.
struct HeldResponse {
    /// `nil` once the request went away (the client closed the connection).
    var request: UnsafeMutablePointer<h2o_req_t>?
    var body = UnsafeRawBufferPointer(start: nil, count: 0)
}
