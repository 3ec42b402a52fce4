import Foundation
import Synchronization
import XCTest
import GtkProgressFiles

/// The worker thread behind background parsing, file reads and session saves: jobs in order, `sync` waits for
/// those before it, and no thread is left once the work is done.
final class SerialWorkerTests: XCTestCase {
    /// The threads of this process whose name is `name` (/proc/self/task/*/comm).
    private static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    func testJobsRunInOrderAndSyncWaitsForThoseBefore() {
        let worker = SerialWorker(name: "order-test")
        let seen = Mutex<[Int]>([])
        for i in 0..<200 {
            worker.async {
                if i % 50 == 0 { usleep(2_000) }
                seen.withLock { $0.append(i) }
            }
        }
        worker.sync { seen.withLock { $0.append(-1) } }
        XCTAssertEqual(seen.withLock { $0 }, Array(0..<200) + [-1])
    }

    func testTheThreadEndsWhenIdleAndStartsAgainForNewWork() {
        let worker = SerialWorker(name: "idle-test")
        let running = Mutex(0)
        worker.sync { running.withLock { $0 = Self.threads(named: "idle-test") } }
        XCTAssertEqual(running.withLock { $0 }, 1, "the job runs on the worker's own thread")
        let deadline = Date().addingTimeInterval(5)
        while Self.threads(named: "idle-test") > 0 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(Self.threads(named: "idle-test"), 0, "no thread is left once the queue is empty")
        let ran = Mutex(false)
        worker.sync { ran.withLock { $0 = true } }
        XCTAssertTrue(ran.withLock { $0 }, "new work starts a new thread")
    }
}
