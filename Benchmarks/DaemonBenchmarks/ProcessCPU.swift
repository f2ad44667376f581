import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The CPU time (user + system, all threads) the processes of this machine have spent, read
/// from /proc, grouped by what each process is: where an action's microseconds go when it
/// passes through several programs.
struct ProcessCPU {
  /// Each process read: its group, and the seconds of CPU it had spent at the moment of reading.
  var processes: [pid_t: (group: String, seconds: Double)] = [:]

  /// Reads every process and names its group with `group` (nil leaves it out).
  ///
  /// - Parameter group: from a process's id, its command name (`comm`) and its command line.
  static func read(group: (pid_t, String, String) -> String?) -> ProcessCPU {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var processes: [pid_t: (group: String, seconds: Double)] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
      else { continue }
      let comm = String(stat[stat.index(after: open)..<close])
      let cmdline = (try? Data(contentsOf: URL(filePath: "/proc/\(entry)/cmdline"))).map {
        String(decoding: $0.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
      } ?? ""
      guard let name = group(pid, comm, cmdline) else { continue }
      // After the command name: state is field 3, utime 14 and stime 15.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
      processes[pid] = (name, (user + system) / ticks)
    }
    return ProcessCPU(processes: processes)
  }

  /// What each group spent between `earlier` and this reading: a process that started in
  /// between counts from zero, one that ended in between is left out (what it spent is gone
  /// with it).
  func since(_ earlier: ProcessCPU) -> [String: Double] {
    var spent: [String: Double] = [:]
    for (pid, now) in processes {
      spent[now.group, default: 0] += now.seconds - (earlier.processes[pid]?.seconds ?? 0)
    }
    return spent
  }
}

