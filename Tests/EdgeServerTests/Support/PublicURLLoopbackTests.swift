import EdgeServer
import Testing

/// `PublicURL.isLoopback`, which decides `serve`'s note that a QR code of this public URL leads nowhere: this
/// machine in every spelling a browser takes, and nothing else.
@Suite struct PublicURLLoopbackTests {
    @Test(arguments: [
        "http://localhost", "http://LOCALHOST:8080/go", "http://app.localhost", "http://127.0.0.1:8080",
        "http://127.8.9.10", "http://127.1", "http://0x7f.0.0.1", "http://2130706433", "http://0.0.0.0:8080",
        "http://[::1]:8080", "http://[0:0:0:0:0:0:0:1]", "http://[::]", "http://[::ffff:127.0.0.1]",
        "https://[::FFFF:7F00:1]/prefix",
    ]) func thisMachineIsLoopback(_ text: String) throws {
        #expect(try PublicURL(text).isLoopback)
    }

    @Test(arguments: [
        "https://links.example.com", "http://127.example.com", "http://localhost.example.com",
        "http://192.168.1.20:8080",
        "http://10.0.0.1", "http://128.0.0.1", "http://[2001:db8::1]", "http://[::2]", "http://[::ffff:10.0.0.1]",
        "http://localhostx",
    ]) func otherHostsAreNot(_ text: String) throws {
        #expect(try !PublicURL(text).isLoopback)
    }
}
