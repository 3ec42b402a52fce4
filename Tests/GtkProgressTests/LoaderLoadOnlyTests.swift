import Foundation
import GtkProgress
import XCTest

/// `keepsBody = false` (`--load-only`): the whole transfer is measured, nothing is kept, no cap applies.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderLoadOnlyTests: XCTestCase {
    let server = TestServer.shared

    func testABodyOverTheDocumentCapArrivesWhenNotKept() async {
        var options = LoaderOptions()
        options.keepsBody = false
        let url = server.url("/big?mb=100")
        let baseline = LoaderSafetyTests.statusBytes("VmRSS")
        let peakIsReset = LoaderSafetyTests.resetPeakResidentBytes()
        let run = record(url, options: options, timeout: 60)
        XCTAssertEqual(run.shape, "response progress… finished")
        XCTAssertEqual(run.progress.last?.received, 100_000_000, "every transfer byte was counted")
        XCTAssertEqual(run.page?.byteCount, 0, "nothing was kept")
        if peakIsReset {
            let growth = LoaderSafetyTests.statusBytes("VmHWM") - baseline
            XCTAssertLessThan(growth, 32 << 20, "memory grew by \(growth >> 20) MiB for a 100 MB body")
        }
    }
}
