import Glibc

/// One iconv conversion descriptor from a legacy encoding to UTF-8; `deinit` closes it.
/// <https://man7.org/linux/man-pages/man3/iconv.3.html>
final class IconvConverter {
    private let descriptor: iconv_t

    init?(from encoding: String) {
        let descriptor = iconv_open("UTF-8", encoding)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        self.descriptor = descriptor
    }

    deinit { iconv_close(descriptor) }

    /// Converts `bytes`; a byte that starts no valid sequence becomes U+FFFD and decoding resumes at the next
    /// byte. A sequence cut off by the end becomes U+FFFD only when `isComplete`.
    func convert(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> String {
        var input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 2 + 16)
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        input.withUnsafeMutableBufferPointer { inputBuffer in
            var inPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var inLeft = inputBuffer.count
            var flushing = false
            while true {
                var failure: Int32 = 0
                var produced = 0
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(chunkBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var outLeft = chunkBuffer.count
                    // With no input left, a call without input writes what ends a shifted state (ISO-2022-JP).
                    let status = flushing ? iconv(descriptor, nil, nil, &outPointer, &outLeft)
                                          : iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    failure = status == -1 ? errno : 0
                    produced = chunkBuffer.count - outLeft
                }
                output.append(contentsOf: chunk[..<produced])
                switch failure {
                case 0:
                    if flushing { return }
                case E2BIG:
                    break
                case EILSEQ:
                    output.append(contentsOf: replacement)
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                case EINVAL:
                    if isComplete { output.append(contentsOf: replacement) }
                    inLeft = 0
                default:
                    output.append(contentsOf: replacement)
                    inLeft = 0
                }
                if inLeft == 0 { flushing = true }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
