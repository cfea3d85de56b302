import EdgeStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error, shared by the server's own log lines and whatever the C libraries it links write there.
///
/// libh2o writes some lines of its own to `stderr`, one per event a client can cause: version 2.2 prints
/// `skipping frame (type:N)` for every HTTP/2 frame of a type it does not know, with a blocking write on the loop's
/// thread. Nine bytes from a client bought a line in the log, so one connection could fill a disk, or, with a log
/// pipe that pushes back (a slow reader, a container runtime's blocking log mode), stop every loop.
/// ``captureLibraryOutput()`` gives the server's own lines a copy of descriptor 2 and points 2 at a pipe whose write
/// end never blocks (a write into a full pipe fails, and the library goes on); a thread passes the libraries' lines
/// on, each cut to ``maximumLineLength`` bytes and marked `library:`, at most ``linesPerSecond`` a second, and says
/// once a second how many it dropped. The server's own lines are bounded where they are written (once a second,
/// once per event of the operator's own making).
public enum StandardError {
    /// Library lines passed on per second; the rest are counted and dropped.
    public static let linesPerSecond = 10
    /// The bytes of a library line passed on; the rest of the line is dropped.
    public static let maximumLineLength = 512

    /// Where the server's own lines go: 2, or after ``captureLibraryOutput()`` the copy of what 2 was.
    private static let descriptor = Atomic<Int32>(2)
    /// The relay's thread, kept for the process's life (it is never stopped).
    private static let relay = Mutex<ServerThread?>(nil)

    /// Writes one line of the server's own, whole, prefixed with `tolt-edge: `.
    public static func write(line: String) { write(text: "tolt-edge: \(line)\n") }

    /// Writes `text` as it is where the server's own lines go (a command's usage and errors too).
    public static func write(text: String) {
        let text = Array(text.utf8)
        let target = descriptor.load(ordering: .acquiring)
        text.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(target, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Moves what the libraries write to descriptor 2 behind the relay described above; the server's own lines keep
    /// going where 2 went. Call once, before any loop starts (`tolt-edge serve` does). Leaves everything as it was
    /// and returns `false` when a descriptor or the thread cannot be had.
    @discardableResult
    public static func captureLibraryOutput() -> Bool {
        relay.withLock { relay in
            guard relay == nil else { return true }
            let copy = fcntl(2, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else { return false }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                close(copy)
                return false
            }
            let (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
            // Status flags belong to the open pipe, so descriptor 2, its duplicate, never blocks either.
            guard fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0, dup2(writeEnd, 2) == 2 else {
                close(copy)
                close(readEnd)
                close(writeEnd)
                return false
            }
            close(writeEnd)
            descriptor.store(copy, ordering: .releasing)
            relay = ServerThread(name: "tolt-stderr") { passOn(from: readEnd) }
            return true
        }
    }

    /// The relay's loop: reads the pipe, passes complete lines on within the rate, and reports what it dropped.
    private static func passOn(from readEnd: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var second = Clock.monotonicSeconds().rounded(.down)
        var passed = 0
        var dropped = 0
        var waiting = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&waiting, 1, 1000)
            let now = Clock.monotonicSeconds().rounded(.down)
            if now != second {
                if dropped > 0 {
                    write(
                        line: "library output: dropped \(dropped) line\(dropped == 1 ? "" : "s") in the last second "
                            + "(at most \(linesPerSecond) a second are kept)")
                }
                (second, passed, dropped) = (now, 0, 0)
            }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count == 0 { return }  // every write end is closed
            guard count > 0 else { continue }
            pending += buffer[..<count]
            // Complete lines, and a line already too long to keep whole.
            while let end = pending.firstIndex(of: UInt8(ascii: "\n"))
                ?? (pending.count > maximumLineLength
                    ? pending.count - 1 : nil)
            {
                let line = pending[..<end]
                pending.removeSubrange(...end)
                if passed < linesPerSecond {
                    passed += 1
                    write(line: "library: " + String(decoding: line.prefix(maximumLineLength), as: UTF8.self))
                } else {
                    dropped += 1
                }
            }
        }
    }
}
