/// What phrasing elements that carry meaning (an edit, a subscript) do to a run's style, and the marks that keep
/// that meaning in plain text, where strike-through and raised digits cannot be drawn.
///
/// The marks are w3m's where w3m has them (`[DEL:…:DEL]`, `[INS:…:INS]`, `[S:…:S]`, `x^2`: its `HTMLtagproc1`
/// in file.c); a subscript reads `H_2O`, TeX's way of writing one in plain text.
enum InlineMarks {
    /// Sets what `role` means on `style`; other roles leave it as it is.
    static func apply(_ role: ElementRole, to style: inout TextStyle) {
        switch role {
        case .code:
            style.monospace = true
            style.code = true
        case .edit(let inserted):
            if inserted { style.underline = true } else { style.strikethrough = true }
        case .struck:
            style.strikethrough = true
        case .underlined:
            style.underline = true
        case .highlighted:
            style.highlight = true
        case .shifted(let baseline):
            style.baseline = baseline
        default:
            break
        }
    }

    /// The text written before and after the element's content in plain text; nil when plain text needs none
    /// (an underline or a highlight is a look, not a change of meaning a reader would miss).
    static func plainText(_ role: ElementRole) -> (open: String, close: String)? {
        switch role {
        case .edit(let inserted): return inserted ? ("[INS:", ":INS]") : ("[DEL:", ":DEL]")
        case .struck: return ("[S:", ":S]")
        case .shifted(.raised): return ("^", "")
        case .shifted(.lowered): return ("_", "")
        default: return nil
        }
    }
}
