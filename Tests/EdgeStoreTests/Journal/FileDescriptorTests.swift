import Foundation
import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// The one write loop the journal and the CLI share: everything is written across short writes and signals, and
/// a failure says what it was and how much went out before it, as the journal needs to cut a torn tail.
@Suite struct FileDescriptorTests {
    static func pipeDescriptors(nonBlocking: Bool = false) throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        for descriptor in descriptors where nonBlocking { try setNonBlocking(descriptor, true) }
        return (descriptors[0], descriptors[1])
    }

    static func setNonBlocking(_ descriptor: Int32, _ on: Bool) throws {
        let flags = fcntl(descriptor, F_GETFL)
        try #require(fcntl(descriptor, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0)
    }

    /// Reads what a non-blocking descriptor holds now.
    static func readAvailable(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard got > 0 else { return bytes }
            bytes += chunk[..<got]
        }
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    /// Reads `count` bytes, or to end of file.
    static func readAll(_ descriptor: Int32, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < count {
            let got = chunk.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress, min($0.count, count - bytes.count))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            bytes += chunk[..<got]
        }
        return bytes
    }

    @Test func aBufferLargerThanThePipeIsWrittenWhole() throws {
        // 4 MiB through a pipe that holds 64 KiB, while another thread drains it.
        let (reader, writer) = try Self.pipeDescriptors()
        defer { close(reader) }
        let bytes = Self.pattern(4 << 20)
        let received = Mutex<[UInt8]>([])
        let done = Atomic<Bool>(false)
        TestThread.start(name: "test-drain") {
            let all = Self.readAll(reader, count: 4 << 20)
            received.withLock { $0 = all }
            done.store(true, ordering: .releasing)
        }
        let result: FileDescriptor.WriteError? = bytes.withUnsafeBytes { buffer in
            do throws(FileDescriptor.WriteError) {
                try FileDescriptor.writeAll(writer, buffer)
                return nil
            } catch { return error }
        }
        close(writer)
        #expect(result == nil)
        while !done.load(ordering: .acquiring) { usleep(1_000) }
        let all = received.withLock { $0 }
        #expect(all.count == bytes.count)
        let inOrder = all == bytes
        #expect(inOrder, "the bytes arrived in order")
    }

    @Test func anEmptyBufferWritesNothingAndSucceeds() throws {
        let (reader, writer) = try Self.pipeDescriptors(nonBlocking: true)
        defer {
            close(reader)
            close(writer)
        }
        try FileDescriptor.writeAll(writer, UnsafeRawBufferPointer(start: nil, count: 0))
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) == -1 && errno == EAGAIN, "nothing reached the pipe")
    }

    @Test func aFailureAfterAPartialWriteReportsTheErrnoAndWhatWasWritten() throws {
        // A non-blocking pipe nobody reads: the first write fills it, the next fails with EAGAIN.
        let (reader, writer) = try Self.pipeDescriptors(nonBlocking: true)
        defer {
            close(reader)
            close(writer)
        }
        let bytes = Self.pattern(4 << 20)
        let failure = try #require(
            bytes.withUnsafeBytes { buffer -> FileDescriptor.WriteError? in
                do throws(FileDescriptor.WriteError) {
                    try FileDescriptor.writeAll(writer, buffer)
                    return nil
                } catch { return error }
            })
        #expect(failure.code == EAGAIN)
        #expect(failure.written > 0 && failure.written < bytes.count)
        let sent = Self.readAvailable(reader)
        #expect(sent.count == failure.written)
        let inOrder = sent == Array(bytes.prefix(failure.written))
        #expect(inOrder, "exactly the written bytes went out")
        #expect(failure.description == String(cString: strerror(EAGAIN)))
    }

    @Test func aFullDeviceFailsWithENOSPCBeforeAnyByte() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0, "/dev/full is missing")
        defer { close(full) }
        #expect(throws: FileDescriptor.WriteError(code: ENOSPC, written: 0)) {
            try Self.pattern(100).withUnsafeBytes { try FileDescriptor.writeAll(full, $0) }
        }
    }

    @Test func aDescriptorNotOpenForWritingFailsWithEBADF() throws {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        #expect(throws: FileDescriptor.WriteError(code: EBADF, written: 0)) {
            try Self.pattern(10).withUnsafeBytes { try FileDescriptor.writeAll(null, $0) }
        }
    }

    /// Signals the handler below has caught; an atomic, so the handler may touch it.
    static let caughtSignals = Atomic<Int>(0)

    /// A signal whose handler is installed without `SA_RESTART` interrupts a write blocked on a full pipe: it
    /// returns `EINTR` when it wrote nothing yet (the pipe was full before it), or the bytes it wrote (a short
    /// write, when the pipe was empty). Either way the rest must be written once the pipe is drained. Serialized:
    /// the cases share the process's SIGUSR2 handler.
    @Test(.serialized, arguments: [true, false])
    func aWriteInterruptedByASignalGoesOn(pipeFullBefore: Bool) throws {
        let caughtBefore = Self.caughtSignals.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in FileDescriptorTests.caughtSignals.add(1, ordering: .relaxed) }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let (reader, writer) = try Self.pipeDescriptors()
        defer { close(reader) }
        // Fill the pipe, so that the next (blocking) write waits before writing anything.
        try Self.setNonBlocking(writer, true)
        var filled = 0
        while pipeFullBefore && write(writer, [0xEE], 1) == 1 { filled += 1 }
        try #require(!pipeFullBefore || (errno == EAGAIN && filled > 0))
        try Self.setNonBlocking(writer, false)

        let bytes = Self.pattern(100_000)
        let thread = Mutex<pthread_t?>(nil)
        let result = Mutex<FileDescriptor.WriteError??>(nil)
        let released = Atomic<Bool>(false)
        TestThread.start(name: "test-eintr") {
            // A thread inherits its creator's signal mask, and the test runner's threads may block SIGUSR2.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            thread.withLock { $0 = pthread_self() }
            let outcome: FileDescriptor.WriteError? = bytes.withUnsafeBytes { buffer in
                do throws(FileDescriptor.WriteError) {
                    try FileDescriptor.writeAll(writer, buffer)
                    return nil
                } catch { return error }
            }
            result.withLock { $0 = .some(outcome) }
            // The reader sees the end of the data even if the write stopped early, so the test cannot hang.
            close(writer)
            // The thread stays until no more signals are sent to it.
            while !released.load(ordering: .acquiring) { usleep(1_000) }
        }
        defer { released.store(true, ordering: .releasing) }
        while thread.withLock({ $0 }) == nil { usleep(1_000) }
        // Interrupt the blocked write several times; no interruption may be reported as a failure. Each signal
        // waits for the one before to be caught: two sent while the thread is not scheduled would merge into one.
        let deadline = Clock.monotonicSeconds() + 10
        for sent in 1...5 {
            usleep(20_000)
            pthread_kill(thread.withLock { $0 }!, SIGUSR2)
            while Self.caughtSignals.load(ordering: .relaxed) < caughtBefore + sent
                && Clock.monotonicSeconds() < deadline
            {
                usleep(1_000)
            }
        }
        #expect(Self.caughtSignals.load(ordering: .relaxed) >= caughtBefore + 5, "the signals reached the writer")
        #expect(result.withLock { $0 } == nil, "the write still waits for room, through the signals")
        let received = Self.readAll(reader, count: filled + bytes.count)
        #expect(received.count == filled + bytes.count)
        let inOrder = received == [UInt8](repeating: 0xEE, count: filled) + bytes
        #expect(inOrder, "the bytes arrived in order")
        while result.withLock({ $0 }) == nil && Clock.monotonicSeconds() < deadline { usleep(1_000) }
        #expect(result.withLock { $0 } == .some(nil), "no error reached the caller")
    }
}
