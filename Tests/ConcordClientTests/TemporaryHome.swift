import Foundation

/// A fresh home for the client's files (0700, under /tmp), as `CONCORD_HOME` would be.
enum TemporaryHome {
  static func make() -> URL {
    let url = URL(filePath: "/tmp").appending(path: "cc-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url
  }
}
