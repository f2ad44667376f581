import Foundation

/// Makes an SQLite database file, and the `-wal` and `-shm` files SQLite keeps beside it, mode
/// 0600 whatever the umask.
///
/// SQLite creates `-wal` and `-shm` lazily, when the first connection needs them, and gives each
/// the mode the database file has at that moment (measured with SQLite 3.40.1 under umask 022:
/// a database made 0600 only after opening left both at 0644; one made 0600 before opening got
/// both at 0600). So the database file is created 0600 before SQLite opens it, rather than
/// changing the umask, which is the whole process's and would race with its other threads.
/// Files left by an older version at another mode are set to 0600 too.
///
/// ```swift
/// PrivateDatabaseFile.prepare(path)
/// let pool = try DatabasePool(path: path)
/// ```
public enum PrivateDatabaseFile {
  /// Creates `path` empty at mode 0600 when it does not exist (SQLite takes an empty file for a
  /// new database), and sets it and its `-wal` and `-shm` to 0600 when they do. Best effort: a
  /// file that cannot be made or changed is left for SQLite to report.
  public static func prepare(_ path: String) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    for file in [path, path + "-wal", path + "-shm"] {
      var status = stat()
      if lstat(file, &status) == 0, status.st_mode & 0o777 != 0o600 { chmod(file, 0o600) }
    }
  }
}
