import Glibc
import GtkProgressCore

/// The width `--dump` writes at, from the command line and the terminal standard output goes to.
package enum TerminalSize {
    package static func dumpWidth(option: Int?) -> Int {
        let isTerminal = isatty(STDOUT_FILENO) != 0
        var columns: Int?
        if isTerminal {
            // TIOCGWINSZ (tty_ioctl(4)): the terminal's rows and columns.
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 { columns = Int(size.ws_col) }
        }
        return DumpWidth.choose(option: option, outputIsTerminal: isTerminal, terminalColumns: columns,
                                columnsVariable: getenv("COLUMNS").map { String(cString: $0) })
    }
}
