import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The loopback test server (`Tests/server/testserver.py`, its routes documented at its top), run with the
/// system Python. `TestServer.shared` starts once per test process on a free port; the server exits when this
/// process does (it watches its standard input), so no test has to stop it.
///
///     let url = TestServer.shared.url("/slow?size=200000&rate=400000")
///     TestServer.shared.requestCount(for: "/slow")
final class TestServer: @unchecked Sendable {
    static let shared = TestServer()

    /// Plain HTTP.
    let port: Int
    /// HTTPS with a self-signed certificate (0 when openssl was missing): every client that verifies fails.
    let tlsPort: Int
    /// A port whose accept queue is full: connecting hangs until the client's connect timeout.
    let blackholePort: Int
    private let process: Process
    private let input: Pipe

    init() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("server/testserver.py")
        let process = Process()
        // The system Python: the first python3 on PATH may be another one.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            fatalError("Could not start the test server \(script.path): \(error)")
        }
        var text = ""
        while text.filter({ $0 == "\n" }).count < 2 {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { fatalError("The test server \(script.path) exited before printing its ports") }
            text += String(decoding: data, as: UTF8.self)
        }
        let lines = text.split(separator: "\n").map(String.init)
        var extra: [String: Int] = [:]
        for pair in lines[1].split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2 { extra[String(parts[0])] = Int(parts[1]) }
        }
        self.port = Int(lines[0])!
        self.tlsPort = extra["tls"] ?? 0
        self.blackholePort = extra["blackhole"] ?? 0
        self.process = process
        self.input = input
    }

    /// Stops the server now (it also stops by itself when the test process exits).
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    /// `path` may carry a query: `url("/redirect?n=3")`.
    func url(_ path: String) -> URL { URL(string: origin + path)! }

    func tlsURL(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(tlsPort)" + path)! }

    /// A URL on the port that never accepts connections.
    func blackholeURL(_ path: String = "/") -> URL { URL(string: "http://127.0.0.1:\(blackholePort)" + path)! }

    /// How many requests the server got for `path` (without query), from its `/count` route.
    func requestCount(for path: String) -> Int {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? path
        return Int(get("/count?path=\(encoded)").body.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Forgets all request counts.
    func resetCounts() { _ = get("/count/reset") }

    /// A blocking GET over a plain socket, independent of the code under test and of any main loop.
    func get(_ path: String) -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket() failed")
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "could not connect to the test server")
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (status, body)
    }

    /// A loopback port with nothing listening on it: connecting is refused.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
