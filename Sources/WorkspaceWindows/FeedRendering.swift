import Workspace
import ConcordApp
import Foundation

/// The read-only scopes as windows show them: who is here, and what happened.
enum FeedRendering {
  static func presence(_ presence: Presence, width: Int, palette: Palette) -> [String] {
    guard !presence.windows.isEmpty else { return ["", " " + palette.dim("(nobody is connected)")] }
    var lines = [""]
    for user in presence.people {
      let windows = presence.windows.filter { $0.user == user }
      lines.append(" " + palette.bold(user) + palette.dim(" — \(windows.count) window\(windows.count == 1 ? "" : "s")"))
      for window in windows {
        lines.append("   " + TextFit.cut(window.scopes.joined(separator: ", "), width - 4))
      }
    }
    return lines
  }

  /// Newest first: a short window shows what just happened.
  static func activity(_ activity: ActivityView, width: Int, palette: Palette, now: Date = Date()) -> [String] {
    guard !activity.items.isEmpty else { return ["", " " + palette.dim("(nothing has happened yet)")] }
    return [""] + activity.items.reversed().flatMap { item in
      let time = item.at.map { DateText.time($0, now: now) } ?? "⏰"
      var text = item.user.map { "\($0) \(item.text)" } ?? item.text
      if let date = item.date { text += " " + DateText.short(date, now: now) }
      let indent = String(repeating: " ", count: time.count + 2)
      return TextFit.wrap(text, max(10, width - time.count - 3)).enumerated().map { index, line in
        let styled = item.user == nil ? palette.yellow(line) : line
        return index == 0 ? " " + palette.dim(time) + " " + styled : indent + styled
      }
    }
  }
}
