import FoundationEssentials

/// A form sent: where the navigation goes and, for POST, the body. Built from the state by HTML's form
/// submission algorithm; the navigation policy then decides, as for any link of the page, whether it may go.
/// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-algorithm>
package struct FormSubmission: Sendable, Equatable {
    package var url: URL
    /// nil for GET; for POST, the `application/x-www-form-urlencoded` body.
    package var body: [UInt8]?

    package static let contentType = "application/x-www-form-urlencoded"

    /// What submitting form `form` of `document` sends, pressed by control `submitter` (nil: Return in a
    /// field). Nil when the form's action is not an address this viewer can send to, with the reason.
    package static func make(document: Document, state: FormState, form: Int, submitter: Int?,
                             pageURL: URL?) -> Result<FormSubmission, FormRefusal> {
        guard document.forms.indices.contains(form) else { return .failure(.noForm) }
        let pageForm = document.forms[form]
        let action = pageForm.action.map(LinkResolution.trim) ?? ""
        // An empty action is the page's own address (its document URL).
        guard let target = action.isEmpty ? pageURL : LinkResolution.resolve(action, against: document.baseURL ?? pageURL)
        else { return .failure(.badAction(action)) }
        let query = FormEncoding.urlencoded(state.entries(form: form, submitter: submitter))
        let scheme = target.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" || scheme == "file" else {
            return .failure(.unsupportedScheme(scheme ?? ""))
        }
        switch pageForm.method {
        case .get:
            // "Mutate action URL": the query is replaced by the form's data; the fragment stays.
            guard var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else {
                return .failure(.badAction(action))
            }
            components.percentEncodedQuery = query
            guard let url = components.url else { return .failure(.badAction(action)) }
            return .success(FormSubmission(url: url, body: nil))
        case .post:
            if target.isFileURL { return .failure(.postToFile) }
            return .success(FormSubmission(url: target, body: Array(query.utf8)))
        }
    }
}

/// Why a form was not sent, for the status line.
package enum FormRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case noForm
    case badAction(String)
    case unsupportedScheme(String)
    case postToFile

    package var description: String {
        switch self {
        case .noForm: return L("This control belongs to no form.")
        case .badAction(let action): return L("The form's address cannot be read: %@", action)
        case .unsupportedScheme(let scheme): return L("Forms are not sent to %@: addresses.", scheme)
        case .postToFile: return L("A form cannot be posted to a local file.")
        }
    }
}

/// The `application/x-www-form-urlencoded` serializer.
/// <https://url.spec.whatwg.org/#concept-urlencoded-serializer>
package enum FormEncoding {
    /// `name=value&…`, each encoded as UTF-8 with the urlencoded percent-encode set: bytes other than ASCII
    /// letters, digits and `*-._` are %XX, and a space is `+`.
    package static func urlencoded(_ entries: [(name: String, value: String)]) -> String {
        entries.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2A, 0x2D, 0x2E, 0x5F:
                out.append(Character(Unicode.Scalar(byte)))
            case 0x20:
                out.append("+")
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// Every CR, LF and CRLF as CRLF.
    static func normalizedNewlines(_ text: String) -> String {
        var out = ""
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out += "\r\n"
                previousCR = true
                continue
            }
            if scalar == "\n" {
                if !previousCR { out += "\r\n" }
            } else {
                out.unicodeScalars.append(scalar)
            }
            previousCR = false
        }
        return out
    }
}
