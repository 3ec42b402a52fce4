import FoundationEssentials
import Glibc
import GtkProgressCore

/// Reads a folder for its listing page (`FolderListing`): names, kinds, sizes and times, without following
/// anything but the entries' own symbolic links (a link to a folder lists as a folder). Run off the main loop.
package enum LocalFolder {
    /// The most entries listed: a folder of millions would otherwise be a page of hundreds of megabytes.
    package static let maxItems = 10_000

    /// The listing page's HTML, or a message saying why the folder could not be read.
    package static func listing(_ url: URL) -> Result<String, LoadError> {
        let path = url.path
        guard let directory = opendir(path) else {
            let message = L("The folder %@ cannot be read: %@.", path, LocalFile.describe(errno))
            return .failure(LoadError(kind: .fileNotFound, url: url, message: message))
        }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var items: [FolderListing.Item] = []
        var omitted = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            guard items.count < maxItems else {
                omitted += 1
                continue
            }
            var info = stat()
            // The entry's target (a link to a folder is a folder to go into); a dangling link is listed as itself.
            if fstatat(fd, name, &info, 0) != 0, fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                items.append(FolderListing.Item(name: name, isFolder: false, size: nil, modified: ""))
                continue
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            items.append(FolderListing.Item(name: name, isFolder: isFolder, size: isFolder ? nil : Int64(info.st_size),
                                            modified: localTime(info.st_mtim.tv_sec)))
        }
        return .success(FolderListing.html(folder: url, items: items, omitted: omitted))
    }

    /// Whether `url` names a folder.
    package static func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// "2026-11-24 05:12" in the local time zone (`localtime_r`, `strftime`).
    static func localTime(_ seconds: time_t) -> String {
        var time = seconds
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
